/**
 * A `WritableStream` whose writers pass each message straight to `write`, in order, for a sink
 * that takes messages synchronously (`write` queues the message before it returns, and its
 * promise only says when to send more).
 *
 * Why: the ACP SDK takes a writer for every message it sends (`getWriter()`, `write()`,
 * `releaseLock()`, in `Connection.sendMessage`), and a WHATWG writer costs more than the
 * message's own write: each one makes its `ready` and `closed` promises, and releasing it
 * rejects both with a new error. A writer here is one object per stream, holds no lock, and
 * costs nothing to release; closing or aborting it closes or aborts the stream as a WHATWG
 * writer would. Taken while a WHATWG writer holds the stream, it throws as `getWriter` does.
 */
export function directWritable<T>(write: (chunk: T) => Promise<void>): {
  readonly writable: WritableStream<T>;
  /** Errors the stream: later writes reject with `error`. */
  readonly fail: (error: unknown) => void;
} {
  let ended: { readonly error: unknown } | undefined;
  let markClosed!: () => void;
  let markFailed!: (error: unknown) => void;
  const closed = new Promise<undefined>((resolve, reject) => {
    markClosed = () => resolve(undefined);
    markFailed = reject;
  });
  // Nobody may wait on it: a failure is said by the writes that fail.
  closed.catch(() => {});
  const end = (error: unknown): void => {
    if (ended !== undefined) return;
    ended = { error };
    markFailed(error);
  };
  let controller!: WritableStreamDefaultController;
  const writable = new WritableStream<T>({
    start(started) {
      controller = started;
    },
    write: (chunk) => write(chunk),
    close() {
      ended ??= { error: new TypeError('the stream is closed') };
      markClosed();
    },
    abort(reason) {
      end(reason);
    },
  });
  const whatwgGetWriter = writable.getWriter;
  /** A WHATWG writer, for the rare call that changes the stream's state. */
  const withWhatwgWriter = async (
    use: (writer: WritableStreamDefaultWriter<T>) => Promise<void>,
  ): Promise<void> => {
    const writer = whatwgGetWriter.call(writable);
    try {
      await use(writer);
    } finally {
      writer.releaseLock();
    }
  };
  const writer: WritableStreamDefaultWriter<T> = {
    get closed() {
      return closed;
    },
    get desiredSize() {
      return ended === undefined ? 1 : null;
    },
    get ready() {
      return ended === undefined ? Promise.resolve(undefined) : closed;
    },
    write(chunk: T) {
      if (ended !== undefined) return Promise.reject(ended.error);
      return write(chunk);
    },
    close: () => withWhatwgWriter((whatwg) => whatwg.close()),
    abort: (reason?: unknown) => withWhatwgWriter((whatwg) => whatwg.abort(reason)),
    releaseLock() {},
  };
  Object.defineProperty(writable, 'getWriter', {
    value(): WritableStreamDefaultWriter<T> {
      // Held by a WHATWG writer: throws, as `getWriter` does.
      if (writable.locked) return whatwgGetWriter.call(writable);
      return writer;
    },
  });
  return {
    writable,
    fail(error) {
      end(error);
      controller.error(error);
    },
  };
}
