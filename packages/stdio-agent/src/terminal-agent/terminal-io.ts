import { createInterface, type Interface } from 'node:readline';
import { cookedTerminalInput } from '../question-ui/line-mode/cooked-terminal-input.js';
import { type LineReader, lineReaderFor } from '../question-ui/line-mode/line-reader.js';
import type { TerminalInput, TerminalOutput } from '../question-ui/terminal/terminal-streams.js';
import { type TerminalStyle, terminalStyle } from '../text/terminal-style.js';
import type { WrapMode } from './streamed-text.js';
import type { TerminalAgentOptions } from './terminal-agent.js';
import { terminalWriter } from './terminal-writer.js';
import type { UndoStack } from './undo-stack.js';

/** What the terminal I/O is made from: the streams and settings of `TerminalAgentOptions`. */
export type TerminalIoOptions = Pick<
  TerminalAgentOptions,
  'input' | 'output' | 'errorOutput' | 'env' | 'color' | 'plain'
>;

function colorEnvironment(env: NodeJS.ProcessEnv, color: boolean | undefined): NodeJS.ProcessEnv {
  // FORCE_COLOR wins over every other setting, for this program and the question UI alike.
  return color === undefined ? env : { ...env, FORCE_COLOR: color ? '1' : '0' };
}

/** The terminal agent's streams, what they are (a screen, a keyboard, a pipe), and its writers. */
export class TerminalIo {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  readonly errorOutput: TerminalOutput;
  /** The environment as given: `NO_COLOR`, `TERM`, and what a notifier reads. */
  readonly sourceEnv: NodeJS.ProcessEnv;
  /** The environment with the colour settings applied, for this program and the question UI. */
  readonly env: NodeJS.ProcessEnv;
  readonly plain: boolean;
  /** Input and output are both a terminal. */
  readonly onTerminal: boolean;
  /** Whether the screen is drawn on: raw keys, menus, the status line. */
  readonly terminal: boolean;
  /** How the model's text wraps: only a screen drawn on may take back what it wrote. */
  readonly textWrap: WrapMode;
  /** The input is not a terminal: what it holds was written without seeing the screen. */
  readonly pipedInput: boolean;
  readonly style: TerminalStyle;
  readonly errorStyle: TerminalStyle;
  /** Writes to the error output (the status lines, notes about the program). */
  readonly say: (text: string) => void;
  readonly #writeOutput: (text: string) => void;
  #outputBroken = false;

  constructor(options: TerminalIoOptions) {
    this.input = (options.input ?? process.stdin) as TerminalInput;
    this.output = (options.output ?? process.stdout) as TerminalOutput;
    this.errorOutput = (options.errorOutput ?? process.stderr) as TerminalOutput;
    this.sourceEnv = options.env ?? process.env;
    this.plain = options.plain === true || this.sourceEnv.TERM === 'dumb';
    // Plain mode has no styling at all, whatever the colour settings say.
    this.env = colorEnvironment(this.sourceEnv, this.plain ? false : options.color);
    const { input, output, errorOutput, env } = this;
    this.onTerminal = input.isTTY === true && output.isTTY === true;
    this.terminal = this.onTerminal && typeof input.setRawMode === 'function' && !this.plain;
    this.textWrap = this.terminal ? 'redraw' : 'hold';
    this.pipedInput = input.isTTY !== true;
    this.style = terminalStyle({ env, stream: output, interactive: this.terminal });
    const interactive = errorOutput.isTTY === true;
    this.errorStyle = terminalStyle({ env, stream: errorOutput, interactive });
    this.say = terminalWriter(errorOutput);
    this.#writeOutput = terminalWriter(output);
  }

  /** Whether the output failed: nothing more is written to it. */
  get outputBroken(): boolean {
    return this.#outputBroken;
  }

  /** Writes to the output (the conversation), unless it failed. */
  write(text: string): void {
    if (!this.#outputBroken) this.#writeOutput(text);
  }

  /**
   * Where the model's text wraps. A screen drawn on fills the row; a terminal that is not
   * (plain mode) wraps a column early, as a terminal without a pending wrap would break the
   * line itself on the last one. A pipe is not wrapped.
   */
  textColumns(): number | undefined {
    const { output } = this;
    if (this.terminal) return output.columns;
    const { columns } = output;
    return output.isTTY === true && columns !== undefined && columns > 1 ? columns - 1 : undefined;
  }

  /** The error output's width, when it is a terminal. */
  errorColumns(): number | undefined {
    return this.errorOutput.isTTY === true ? this.errorOutput.columns : undefined;
  }

  /**
   * Stops writing once the output fails, and calls `onBroken` the first time: whoever read the
   * output is gone (`| head`), so nothing more can be said.
   */
  watchOutput(undo: UndoStack, onBroken: (error: { code?: unknown }) => void): void {
    const onError = (error: { code?: unknown }): void => {
      if (this.#outputBroken) return;
      this.#outputBroken = true;
      onBroken(error);
    };
    this.output.on('error', onError);
    undo.defer(() => {
      // A broken output still reports the writes that were under way: they must not crash.
      if (!this.#outputBroken) this.output.removeListener('error', onError);
    });
  }
}

/** The prompt's readline Interface, shared with the question UI, and its line reader. */
export interface PromptLine {
  readonly rl: Interface;
  readonly lines: LineReader;
  /** Whether the prompt waits for a line, rather than a turn running. */
  atPrompt: boolean;
}

/** Opens the prompt's readline Interface on `io`; `undo` closes it. */
export function openPromptLine(
  io: TerminalIo,
  undo: UndoStack,
  escapeCodeTimeout: number | undefined,
): PromptLine {
  const { input, output, terminal, style } = io;
  // Assigned below, before the input can deliver a key.
  let prompt!: PromptLine;
  // A keyboard in cooked mode (plain mode, or output to a pipe): Ctrl+D at a question ends only
  // that question, and quits only at the prompt.
  const fd = (input as { fd?: unknown }).fd;
  const lineInput =
    !terminal && input.isTTY === true && typeof fd === 'number'
      ? undo.adopt(
          cookedTerminalInput(input as TerminalInput & { readonly fd: number }, {
            // At a question it declines; while the model works it is ignored, as on the screen.
            takeEndKey: () => prompt.lines.takeEndKey() || !prompt.atPrompt,
          }),
          (cooked) => cooked.destroy(),
        )
      : input;
  const rl = createInterface({
    input: lineInput,
    output,
    terminal,
    prompt: `${style.bold(style.accent('>'))} `,
    crlfDelay: Number.POSITIVE_INFINITY,
    historySize: terminal ? 100 : 0,
    removeHistoryDuplicates: true,
    ...(escapeCodeTimeout !== undefined && { escapeCodeTimeout }),
  });
  undo.defer(() => rl.close());
  prompt = { rl, lines: lineReaderFor(rl), atPrompt: false };
  return prompt;
}
