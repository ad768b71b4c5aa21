import { createInterface, type Interface } from 'node:readline';
import type { LineTerminal } from './line-mode/line-dialog.js';
import { type LineReader, lineReaderFor } from './line-mode/line-reader.js';
import type { InteractiveTerminal } from './menu/screen-session.js';
import type { ReadlineProviderMode, ReadlineProviderOptions } from './readline-provider.js';
import {
  inputEnded,
  type TerminalInput,
  type TerminalOutput,
} from './terminal/terminal-streams.js';

/** Where the question UI reads and writes: the options of `createReadlineProvider` it reads. */
export type QuestionTerminalOptions = Pick<
  ReadlineProviderOptions,
  'input' | 'output' | 'readline' | 'mode' | 'env' | 'escapeCodeTimeout'
>;

/** When a question's time limit ends, by which clock (both absent: it has none). */
export interface QuestionTiming {
  readonly deadline?: number;
  readonly now?: () => number;
}

function pickMode(
  requested: ReadlineProviderMode,
  input: TerminalInput,
  output: TerminalOutput,
  readline: Interface | undefined,
  env: NodeJS.ProcessEnv,
): 'interactive' | 'line' {
  if (requested !== 'auto') return requested;
  const terminal =
    input.isTTY === true &&
    typeof input.setRawMode === 'function' &&
    output.isTTY === true &&
    env.TERM !== 'dumb';
  return terminal && (readline === undefined || readline.terminal) ? 'interactive' : 'line';
}

function isClosed(readline: Interface | undefined): boolean {
  return (readline as { closed?: boolean } | undefined)?.closed === true;
}

/**
 * The terminal the questions of one question UI share, one at a time: its streams, the mode
 * they are shown in, and the line reader of line mode (on the host's Interface, or on one of
 * its own made at the first line read).
 */
export class QuestionTerminal {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  /** A host's Interface on the same streams, shared with the host's own prompt. */
  readonly shared: Interface | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly mode: 'interactive' | 'line';
  readonly #escapeCodeTimeout: number | undefined;
  #ownReadline: Interface | undefined;
  #reader: LineReader | undefined;

  constructor(options: QuestionTerminalOptions) {
    const shared = options.readline;
    const streams = shared as { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream };
    this.shared = shared;
    this.input = (options.input ?? streams?.input ?? process.stdin) as TerminalInput;
    this.output = (options.output ?? streams?.output ?? process.stdout) as TerminalOutput;
    this.env = options.env ?? process.env;
    this.mode = pickMode(options.mode ?? 'auto', this.input, this.output, shared, this.env);
    this.#escapeCodeTimeout = options.escapeCodeTimeout;
  }

  /** The line reader of line mode, made at its first use. */
  lineReader(): LineReader {
    if (this.#reader !== undefined) return this.#reader;
    if (this.shared !== undefined) {
      this.#reader = lineReaderFor(this.shared);
    } else {
      this.#ownReadline = createInterface({
        input: this.input,
        terminal: false,
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      this.#reader = lineReaderFor(this.#ownReadline);
    }
    return this.#reader;
  }

  /** Whether nobody can answer any more: the input ended, or the shared Interface closed. */
  inputGone(): boolean {
    const { input, shared } = this;
    if (this.mode === 'interactive') return inputEnded(input) || isClosed(shared);
    // An Interface made on an input that already ended would never close: do not make one.
    if (this.#reader === undefined && shared === undefined && inputEnded(input)) return true;
    return this.lineReader().exhausted;
  }

  /** The terminal a menu, a set of questions or an approval is drawn on. */
  screen(timing: QuestionTiming): InteractiveTerminal {
    const { input, output, shared: readline, env } = this;
    return { input, output, readline, env, escapeCodeTimeout: this.#escapeCodeTimeout, ...timing };
  }

  /** What a question in line mode reads and writes; the input is read again from here on. */
  line(timing: QuestionTiming): LineTerminal {
    const reader = this.lineReader();
    const own = this.#ownReadline;
    if (own !== undefined && !isClosed(own)) own.resume();
    const { output, env } = this;
    return { reader, output, env, keyboard: this.input.isTTY === true, ...timing };
  }

  /** No question waits: stop reading, so that a provider nobody asks does not keep the process alive. */
  idle(): void {
    const own = this.#ownReadline;
    if (own !== undefined && !isClosed(own)) own.pause();
  }

  /** Closes the Interface of its own, if it made one. */
  close(): void {
    this.#ownReadline?.close();
  }
}
