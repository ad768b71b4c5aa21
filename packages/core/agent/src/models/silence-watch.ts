/**
 * Bounds the silence of one request: the wait for the server's first byte, and each gap
 * between two pieces of its answer. Its `signal` aborts when the caller's does, or once the
 * server has sent nothing for `limitMs`; `silent` tells which. A long answer that keeps
 * streaming is never cut, and time spent by the reader between two pieces (`hold`) is not
 * the server's silence.
 */
export class SilenceWatch {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onCallerAbort = (): void => this.#controller.abort(this.#caller.reason);
  #silent = false;
  #ended = false;
  #endTimer: ReturnType<typeof setTimeout> | undefined;
  #holding = false;
  #stopped = false;

  constructor(limitMs: number, caller: AbortSignal) {
    this.signal = this.#controller.signal;
    this.#caller = caller;
    this.#timer = setTimeout(() => {
      // The reader is busy, not the server: the wait starts again when it reads on.
      if (this.#holding || this.signal.aborted) return;
      this.#silent = true;
      this.#controller.abort(new Error(`The server sent nothing for ${limitMs} ms.`));
    }, limitMs);
    if (caller.aborted) this.#onCallerAbort();
    else caller.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  /** True once the server was silent for the whole limit (the caller did not abort). */
  get silent(): boolean {
    return this.#silent;
  }

  /** True once the stream was cut because it did not end in time after the answer (`endWithin`). */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * The answer is complete: the server has `ms` more to end its stream (keep-alives do not
   * count), then the stream is cut and `ended` is true. Only the first call counts.
   */
  endWithin(ms: number): void {
    if (this.#endTimer !== undefined || this.#stopped) return;
    this.#endTimer = setTimeout(() => {
      if (this.signal.aborted) return;
      this.#ended = true;
      this.#controller.abort(
        new Error(`The server did not end its stream ${ms} ms after the answer.`),
      );
    }, ms);
  }

  /** Something arrived (or the reader reads on): the silence starts again from now. */
  heard(): void {
    this.#holding = false;
    if (!this.#stopped && !this.signal.aborted) this.#timer.refresh();
  }

  /** The reader is handling what arrived: no silence is counted until `heard`. */
  hold(): void {
    this.#holding = true;
  }

  /** A `fetch` that tells this watch about the response and every piece of its body. */
  fetch(base: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await base(input, init);
      this.heard();
      if (response.body === null) return response;
      const heard = (): void => this.heard();
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            heard();
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }

  /** Ends the watch: no timer or listener is left behind. Idempotent. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#endTimer);
    this.#caller.removeEventListener('abort', this.#onCallerAbort);
  }
}
