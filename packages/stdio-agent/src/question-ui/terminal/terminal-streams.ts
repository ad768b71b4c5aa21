/** The input a question reads: a stream, with the TTY parts when it is a terminal. */
export type TerminalInput = NodeJS.ReadableStream & {
  readonly isTTY?: boolean;
  readonly isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  readonly readableFlowing?: boolean | null;
  readonly readableLength?: number;
  readonly readableEnded?: boolean;
  readonly destroyed?: boolean;
};

/** The output a question writes to: a stream, with the TTY parts when it is a terminal. */
export type TerminalOutput = NodeJS.WritableStream & {
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
  getColorDepth?(env?: NodeJS.ProcessEnv): number;
};

/** True once nothing more can be read from the input. */
export function inputEnded(input: TerminalInput): boolean {
  return input.readableEnded === true || input.destroyed === true;
}

/** Whether the output failed or was closed: writing to it would only fail again. */
export function outputBroken(output: TerminalOutput): boolean {
  const stream = output as { destroyed?: boolean; writableEnded?: boolean; errored?: unknown };
  return stream.destroyed === true || stream.writableEnded === true || stream.errored != null;
}

/**
 * Writes the last text of a question, then removes `onError` from the output. A write that
 * fails (EPIPE: the reader of a pipe left) reports it only later, at once or long after the
 * question ended: the listener stays until the turn after the write's callback (or, when nothing
 * is written to an output that failed and `reported` says its error did not reach `onError`,
 * until the next turn), so the failure is handled, never uncaught.
 * (`process.stdout` is never destroyed and reports each failed write: neither its state nor its
 * `close` can say when its errors have all been reported.)
 */
export function writeLast(
  output: TerminalOutput,
  text: string,
  onError: (error: unknown) => void,
  reported = false,
): void {
  const release = (): void => {
    output.removeListener('error', onError);
  };
  const broken = outputBroken(output);
  if (text !== '' && !broken) {
    // Its failure, if any, is reported around its callback, at once or much later (a socket):
    // the listener stays until the turn after it.
    output.write(text, () => setImmediate(release));
    return;
  }
  if (broken && !reported) setImmediate(release);
  else release();
}
