/** A stream a log writes to: `process.stderr`, or any Node writable. */
export type LogStream = Pick<NodeJS.WritableStream, 'write' | 'on' | 'writable'> & {
  readonly destroyed?: boolean;
};

// One listener per stream, however many logs and consoles write to it.
const guarded = new WeakMap<LogStream, () => boolean>();

/**
 * Keeps `stream` from crashing the process when its reader goes away: a failed write (`EPIPE`
 * when the editor stops reading its agent's stderr) is an `error` event, which would otherwise
 * be thrown as an uncaught exception. Returns whether the stream has failed so far.
 */
export function survivingWriteErrors(stream: LogStream): () => boolean {
  let state = guarded.get(stream);
  if (state === undefined) {
    const failed = { value: false };
    stream.on('error', () => {
      failed.value = true;
    });
    state = () => failed.value;
    guarded.set(stream, state);
  }
  return state;
}

/**
 * A log that writes each line to `stream` (default: `process.stderr`) after `prefix`. Logging
 * never takes the program down: once the stream fails or closes, lines are dropped.
 */
export function createStderrLog(
  prefix: string,
  stream: LogStream = process.stderr,
): (line: string) => void {
  const failed = survivingWriteErrors(stream);
  return (line) => {
    if (failed() || stream.destroyed === true || !stream.writable) return;
    try {
      stream.write(`${prefix}${line}\n`);
    } catch {
      // A stream that throws instead of emitting an error: the line is dropped all the same.
    }
  };
}
