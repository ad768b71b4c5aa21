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
 * return, without waiting for it. One abort listener serves the whole iteration: a model
 * streams many small events, and a listener per event costs more than the event itself.
 */
export async function* abortable<T>(
  iterable: AsyncIterable<T>,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const iterator = iterable[Symbol.asyncIterator]();
  let finished = false;
  let wake: ((value: typeof ABORTED) => void) | undefined;
  const onAbort = (): void => wake?.(ABORTED);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (!signal.aborted) {
      const next = await new Promise<IteratorResult<T> | typeof ABORTED>((resolve, reject) => {
        wake = resolve;
        // The losing `next()` is still observed, so its rejection is never unhandled.
        Promise.resolve(iterator.next()).then(resolve, reject);
      });
      wake = undefined;
      if (next === ABORTED) return;
      if (next.done === true) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!finished) {
      // A source busy awaiting handles `return` only later: waiting here would undo the race.
      Promise.resolve(iterator.return?.()).catch(() => {});
    }
  }
}

/**
 * Resolves with `true` after `ms`, or with `false` as soon as the signal aborts; either way
 * no timer or listener is left behind.
 */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
