/**
 * Calls `callback` once what a terminal already holds has reached the program: input typed
 * while nobody read it (or while the event loop was busy) is read at the next poll, within the
 * next two turns of the event loop. Returns a function that cancels the call.
 */
export function afterPendingInput(callback: () => void): () => void {
  let timer: NodeJS.Immediate | undefined = setImmediate(() => {
    timer = setImmediate(() => {
      timer = undefined;
      callback();
    });
  });
  return () => {
    if (timer !== undefined) clearImmediate(timer);
    timer = undefined;
  };
}
