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
