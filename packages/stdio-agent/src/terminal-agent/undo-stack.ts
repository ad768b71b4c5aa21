/**
 * Undoes one setup; a promise it returns is waited for before the next cleanup runs, and any
 * other value is ignored (so `() => stream.removeListener(…)` can be registered as it is).
 */
export type Cleanup = () => unknown;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * The one undo stack of a program: each setup registers its cleanup on the line after it, and
 * `undo` runs them all, last registered first, in one `finally` (as `AsyncDisposableStack` does,
 * which Node 20 lacks). Cleanups that return nothing run one after the other in the same tick.
 */
export class UndoStack {
  readonly #cleanups: Cleanup[] = [];

  /** Registers `cleanup`, to run before every cleanup registered earlier. */
  defer(cleanup: Cleanup): void {
    this.#cleanups.push(cleanup);
  }

  /** Registers the cleanup of `value` right after its setup, and returns `value`. */
  adopt<T>(value: T, cleanup: (value: T) => unknown): T {
    this.#cleanups.push(() => cleanup(value));
    return value;
  }

  /**
   * Runs every cleanup once, last registered first, each even when one before it failed. Then
   * throws what failed: the error of the one cleanup, or an `AggregateError` of them all, in
   * the order they ran.
   */
  async undo(): Promise<void> {
    const errors: unknown[] = [];
    for (let cleanup = this.#cleanups.pop(); cleanup !== undefined; ) {
      try {
        const result = cleanup();
        if (isPromiseLike(result)) await result;
      } catch (error) {
        errors.push(error);
      }
      cleanup = this.#cleanups.pop();
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} cleanups failed`);
  }
}
