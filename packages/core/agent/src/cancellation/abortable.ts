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
 * Steps through an async iterator, each `next()` raced against the signal: it settles with the
 * source's result, or with `ABORTED` as soon as the signal aborts, so a source that ignores its
 * signal cannot hold the caller. One abort listener serves the whole iteration: a model streams
 * many small events, and a listener per event costs more than the event itself. `close()`
 * removes it and, unless the source finished, tells the source to return without waiting.
 */
export class AbortableIterator<T> {
  readonly #iterator: AsyncIterator<T>;
  readonly #signal: AbortSignal;
  #wake: ((value: typeof ABORTED) => void) | undefined;
  #finished = false;
  #closed = false;
  readonly #onAbort = (): void => this.#wake?.(ABORTED);

  constructor(iterable: AsyncIterable<T>, signal: AbortSignal) {
    this.#iterator = iterable[Symbol.asyncIterator]();
    this.#signal = signal;
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  next(): Promise<IteratorResult<T> | typeof ABORTED> {
    if (this.#signal.aborted) return Promise.resolve(ABORTED);
    return new Promise((resolve, reject) => {
      this.#wake = resolve;
      // The losing `next()` is still observed, so its rejection is never unhandled.
      Promise.resolve(this.#iterator.next()).then((result) => {
        if (result.done === true) this.#finished = true;
        resolve(result);
      }, reject);
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake = undefined;
    this.#signal.removeEventListener('abort', this.#onAbort);
    if (!this.#finished) {
      // A source busy awaiting handles `return` only later: waiting here would undo the race.
      Promise.resolve(this.#iterator.return?.()).catch(() => {});
    }
  }
}

/**
 * Iterates `iterable` until it ends or the signal aborts, whichever comes first (see
 * `AbortableIterator`). On abort or early exit the source is told to return, without waiting.
 */
export async function* abortable<T>(
  iterable: AsyncIterable<T>,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const source = new AbortableIterator(iterable, signal);
  try {
    for (;;) {
      const next = await source.next();
      if (next === ABORTED || next.done === true) return;
      yield next.value;
    }
  } finally {
    source.close();
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
