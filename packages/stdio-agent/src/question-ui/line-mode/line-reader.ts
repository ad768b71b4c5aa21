import type { Interface } from 'node:readline';

/** Options of `LineReader.read`. */
export interface ReadLineOptions {
  /** Gives up waiting: the read rejects with the signal's reason and takes no line. */
  readonly signal?: AbortSignal;
  /**
   * Called instead of ending the input when Ctrl+D is pressed on an empty line of a terminal in
   * cooked mode (see `cookedTerminalInput`) while this read is the first waiting; the read
   * goes on waiting (abort it through `signal`).
   */
  readonly onEndKey?: () => void;
}

/**
 * The lines of one readline Interface, handed out in input order to whoever reads next:
 * a host reading prompts and a question reading answers share it, and no line is lost,
 * even when all of them arrived in one chunk before anybody asked.
 */
export interface LineReader {
  /** The next line; `undefined` once the input ended and every buffered line was read. */
  read(options?: ReadLineOptions): Promise<string | undefined>;
  /**
   * Ctrl+D on an empty line of a terminal in cooked mode: the first waiting read takes it when
   * it has `onEndKey` (true), else nobody does (false: the input ends, as a pipe's would).
   */
  takeEndKey(): boolean;
  /**
   * Throws away the lines received and not read yet, and says how many: lines typed before a
   * question was shown are not its answer.
   */
  discard(): number;
  /** Lines received and not read yet. */
  readonly buffered: number;
  /** True once the Interface closed (buffered lines may still be read). */
  readonly ended: boolean;
  /** True once the Interface closed and every line was read: `read` resolves `undefined`. */
  readonly exhausted: boolean;
}

interface Waiter {
  resolve(line: string | undefined): void;
  readonly onEndKey: (() => void) | undefined;
}

const readers = new WeakMap<Interface, LineReader>();

function attach(readline: Interface): LineReader {
  const lines: string[] = [];
  const waiters: Waiter[] = [];
  let ended = (readline as { closed?: boolean }).closed === true;

  readline.on('line', (line: string) => {
    const waiter = waiters.shift();
    if (waiter === undefined) lines.push(line);
    else waiter.resolve(line);
  });
  readline.once('close', () => {
    ended = true;
    for (const waiter of waiters.splice(0)) waiter.resolve(undefined);
  });

  return {
    read({ signal, onEndKey } = {}) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (lines.length > 0) return Promise.resolve(lines.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise<string | undefined>((resolve, reject) => {
        const onAbort = (): void => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          onEndKey,
          resolve(line) {
            signal?.removeEventListener('abort', onAbort);
            resolve(line);
          },
        };
        waiters.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    takeEndKey() {
      const first = waiters[0];
      if (first?.onEndKey === undefined || lines.length > 0) return false;
      first.onEndKey();
      return true;
    },
    discard() {
      return lines.splice(0).length;
    },
    get buffered() {
      return lines.length;
    },
    get ended() {
      return ended;
    },
    get exhausted() {
      return ended && lines.length === 0;
    },
  };
}

/**
 * The one `LineReader` of an Interface, attached on first use. Read every line through it
 * (never through `'line'` listeners of your own), so that prompts and answers stay in order.
 */
export function lineReaderFor(readline: Interface): LineReader {
  let reader = readers.get(readline);
  if (reader === undefined) {
    reader = attach(readline);
    readers.set(readline, reader);
  }
  return reader;
}
