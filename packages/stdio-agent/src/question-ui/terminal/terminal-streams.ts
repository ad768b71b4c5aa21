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
 * fails at once (EPIPE: the reader of a pipe left) marks the stream failed but reports it only
 * in a later tick, after the question ended: while a failure may still be reported (a write
 * failed here, or the output failed and `reported` says its error did not reach `onError`), the
 * listener stays until those ticks have run, so the failure is handled, never uncaught.
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
  const writes = text !== '' && !broken;
  if (writes) output.write(text);
  const pending = writes ? outputBroken(output) : broken && !reported;
  if (pending) setImmediate(release);
  else release();
}
