/** What `raceAbort` resolves with when the signal wins. */
export const ABORTED: unique symbol = Symbol('aborted');

/**
 * Settles with the promise, or with `ABORTED` as soon as the signal aborts, whichever comes
 * first. The losing promise is still observed, so its rejection is never unhandled.
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal,
): Promise<T | typeof ABORTED> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(ABORTED);
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
    if (signal.aborted) resolve(ABORTED);
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Iterates `iterable` until it ends or the signal aborts, whichever comes first, so a source
 * that ignores its signal cannot hold the caller. On abort or early exit the source is told to
 * return, without waiting for it.
 */
export async function* abortable<T>(
  iterable: AsyncIterable<T>,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const iterator = iterable[Symbol.asyncIterator]();
  let finished = false;
  try {
    while (true) {
      const next = await raceAbort(Promise.resolve(iterator.next()), signal);
      if (next === ABORTED) return;
      if (next.done === true) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!finished) {
      // A source busy awaiting handles `return` only later: waiting here would undo the race.
      Promise.resolve(iterator.return?.()).catch(() => {});
    }
  }
}
