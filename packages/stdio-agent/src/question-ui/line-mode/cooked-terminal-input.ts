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
  /** The clock that tells a hung-up terminal from a key (default: `performance.now`). */
  readonly now?: () => number;
}

/**
 * A terminal opened again that ends this soon, having given nothing, may have hung up (its reads
 * return nothing at once) or may have been sent Ctrl+D by a program driving it, right after the
 * question appeared. It is opened once more to tell them apart: a hung-up terminal ends again
 * within this time; a key was a key when nothing more ends within it.
 */
const HUNG_UP_WITHIN_MS = 10;

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
  const now = options.now ?? (() => performance.now());
  let source: NodeJS.ReadableStream = terminal;
  /** Whether the bytes so far end in the middle of a line. */
  let partialLine = false;
  let done = false;
  /** When the terminal was last opened again, and whether it gave anything since. */
  let reopenedAt: number | undefined;
  let quiet = true;
  /**
   * A Ctrl+D that came at once after the terminal was opened again, held until the terminal opened
   * once more tells whether it hung up: the timer that takes it as a key when nothing ends soon.
   */
  let heldKey: ReturnType<typeof setTimeout> | undefined;

  /** Takes the held Ctrl+D as a key: false when nothing took it, and the input has ended. */
  function takeHeldKey(): boolean {
    if (heldKey === undefined) return true;
    clearTimeout(heldKey);
    heldKey = undefined;
    if (options.takeEndKey()) return true;
    finish();
    return false;
  }

  function onData(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (bytes.length === 0) return;
    if (!takeHeldKey()) return;
    quiet = false;
    partialLine = bytes[bytes.length - 1] !== NEWLINE;
    output.write(bytes);
  }

  function onEnd(): void {
    detach(source);
    if (done) return;
    const soon = reopenedAt !== undefined && quiet && now() - reopenedAt < HUNG_UP_WITHIN_MS;
    if (soon && heldKey !== undefined) {
      // Ended at once twice in a row: the terminal hung up, and the held end was not a key
      // (`finish` drops it).
      finish();
      return;
    }
    if (soon) {
      heldKey = setTimeout(takeHeldKey, HUNG_UP_WITHIN_MS);
      heldKey.unref?.();
    } else if (!takeHeldKey()) {
      return;
    } else if (partialLine) {
      partialLine = false;
      output.write('\n');
    } else if (!options.takeEndKey()) {
      finish();
      return;
    }
    if (done) return;
    try {
      source = reopen(fd);
    } catch {
      // The terminal cannot be opened again (it is gone): the input ends.
      finish();
      return;
    }
    reopenedAt = now();
    quiet = true;
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
    if (heldKey !== undefined) clearTimeout(heldKey);
    heldKey = undefined;
    detach(source);
    if (source === terminal) terminal.pause();
    else (source as Readable).destroy();
    if (!output.destroyed) output.end();
  }

  attach(source);
  output.once('close', finish);
  return output;
}
