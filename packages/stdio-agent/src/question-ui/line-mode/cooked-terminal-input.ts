import { PassThrough, type Readable } from 'node:stream';
import { ReadStream } from 'node:tty';

/** Options of `cookedTerminalInput`. */
export interface CookedTerminalInputOptions {
  /**
   * Called when Ctrl+D is pressed on an empty line: true when something took it (a question
   * open in plain mode), and the input goes on; false, and the input ends.
   */
  readonly takeEndKey: () => boolean;
  /** Opens the terminal again after Ctrl+D (default: a new `tty.ReadStream` on the same fd). */
  readonly reopen?: (fd: number) => NodeJS.ReadableStream;
}

/** The input `cookedTerminalInput` returns: the terminal's bytes, ending only when it quits. */
export type CookedTerminalInput = PassThrough & { readonly isTTY: true; readonly fd: number };

const NEWLINE = 0x0a;

/**
 * The input of a terminal in cooked mode (plain mode), for a readline Interface: there Ctrl+D
 * on an empty line is the end of input, and a Node stream that ended never reads again. This
 * input lets the key end one question instead of the program: when `takeEndKey` takes it, the
 * terminal is opened again and the input goes on; when nothing does (at the prompt), it ends.
 * Ctrl+D after typed text (the terminal handed that text over without its Enter) completes
 * that line, as `cat` does.
 */
export function cookedTerminalInput(
  terminal: NodeJS.ReadableStream & { readonly fd: number },
  options: CookedTerminalInputOptions,
): CookedTerminalInput {
  const { fd } = terminal;
  const reopen = options.reopen ?? ((descriptor: number) => new ReadStream(descriptor));
  const output = Object.assign(new PassThrough(), { isTTY: true as const, fd });
  let source: NodeJS.ReadableStream = terminal;
  /** Whether the bytes so far end in the middle of a line. */
  let partialLine = false;
  let done = false;

  function onData(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (bytes.length === 0) return;
    partialLine = bytes[bytes.length - 1] !== NEWLINE;
    output.write(bytes);
  }

  function onEnd(): void {
    detach(source);
    if (done) return;
    if (partialLine) {
      partialLine = false;
      output.write('\n');
    } else if (!options.takeEndKey()) {
      finish();
      return;
    }
    if (done) return;
    source = reopen(fd);
    attach(source);
  }

  function onError(error: Error): void {
    if (!done) output.destroy(error);
  }

  function attach(stream: NodeJS.ReadableStream): void {
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  }

  function detach(stream: NodeJS.ReadableStream): void {
    stream.removeListener('data', onData);
    stream.removeListener('end', onEnd);
    stream.removeListener('error', onError);
  }

  /** Stops reading the terminal: the stream first given is paused, one opened here closed. */
  function finish(): void {
    if (done) return;
    done = true;
    detach(source);
    if (source === terminal) terminal.pause();
    else (source as Readable).destroy();
    if (!output.destroyed) output.end();
  }

  attach(source);
  output.once('close', finish);
  return output;
}
