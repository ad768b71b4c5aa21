/**
 * Gives the event loop a turn once work has held it for `milliseconds`: a long listing or
 * search stays one call, but a cancel, a Ctrl+C or a keypress is seen while it runs. Use it
 * as `if (turns.due()) await turns.take();` inside the loop.
 */
export function eventLoopTurns(milliseconds = 10) {
  let since = performance.now();
  return {
    /** Whether the work has held the event loop long enough to give it a turn. */
    due: (): boolean => performance.now() - since >= milliseconds,
    /** Gives the event loop a turn. */
    async take(): Promise<void> {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    },
  };
}
