import {
  askFailedError,
  inputClosedError,
  type PendingQuestion,
  timeLimitSentence,
} from 'dsh-user-interaction/provider';
import { neutralizeText } from '../../text/neutralize-text.js';
import { type TerminalStyle, terminalStyle } from '../../text/terminal-style.js';
import { whenWithdrawn } from '../question-session.js';
import type { QuestionView } from '../question-view.js';
import { type QuestionEnding, summaryLine, type UnansweredEnding } from '../summary-line.js';
import { timeLeftText } from '../terminal/countdown.js';
import { afterPendingInput } from '../terminal/pending-input.js';
import { outputBroken, type TerminalOutput, writeLast } from '../terminal/terminal-streams.js';
import type { LineAnswer } from './line-answer.js';
import type { LineReader } from './line-reader.js';

/** Where a line-mode question reads and writes. */
export interface LineTerminal {
  readonly reader: LineReader;
  readonly output: TerminalOutput;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Whether a person types the input at a terminal (plain mode), which echoes each line itself.
   * Otherwise (a pipe) each line read after the prompt is written, since nobody saw it typed.
   */
  readonly keyboard: boolean;
  /** When the question's time limit ends (by `now`): said once, before it (nothing counts down here). */
  readonly deadline?: number;
  /** The clock of `deadline` (default: `Date.now`). */
  readonly now?: () => number;
}

/** Options of `LineDialog.read`. */
export interface LineReadOptions {
  /**
   * At a keyboard, lines typed before the prompt is written are thrown away (said in a note),
   * so that only a line typed after it answers: for an approval, which a line typed ahead
   * (before it was shown) must never answer.
   */
  readonly onlyAfterPrompt?: boolean;
}

/** A line the question accepted. */
export type AcceptedLine = Exclude<LineAnswer, { kind: 'retry' }>;

/** What a line-mode session shows and reads through, until it ends. */
export interface LineDialog {
  readonly style: TerminalStyle;
  write(text: string): void;
  /**
   * Writes `prompt` and reads lines until `parse` accepts one, saying why after each it does
   * not. `undefined` once the dialog has ended (the input ended, or it was withdrawn).
   */
  read(
    prompt: string,
    parse: (line: string) => LineAnswer,
    options?: LineReadOptions,
  ): Promise<AcceptedLine | undefined>;
  /** Ends the dialog with its summary lines, then settles the question. */
  finish(lines: readonly string[], settle: () => void): void;
}

function indented(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => indent + line)
    .join('\n');
}

/** The question as a numbered list: the same on a terminal, in a pipe and in a log. */
export function questionBlock(view: QuestionView, style: TerminalStyle): string {
  const mark = style.accent(style.symbols.question);
  const lines: string[] = [];
  if (view.header !== undefined) {
    lines.push(`${mark} ${style.bold(view.header)}`, indented(view.question, '  '));
  } else {
    const [first = '', ...rest] = view.question.split('\n');
    lines.push(`${mark} ${style.bold(first)}`, ...rest.map((line) => `  ${line}`));
  }
  const numberWidth = String(view.optionCount).length;
  const indent = ' '.repeat(numberWidth + 4);
  for (let index = 0; index < view.optionCount; index++) {
    const number = `${String(index + 1).padStart(numberWidth)}.`;
    const recommended = index === view.recommended ? style.dim(' (recommended)') : '';
    lines.push(`  ${number} ${view.label(index)}${recommended}`);
    const description = view.description(index);
    if (description !== undefined) lines.push(style.dim(indented(description, indent)));
  }
  return `${lines.join('\n')}\n`;
}

const ESC = '\u001b';
const ESCAPE_MESSAGE =
  'Arrow keys and other escape sequences do not work here: type the answer again.';

/** `esc` for a line of Esc alone (spaces aside), `sequence` for any other escape in it. */
function escapeIn(line: string): 'esc' | 'sequence' | undefined {
  if (!line.includes(ESC)) return undefined;
  return line.replaceAll(ESC, '').trim() === '' ? 'esc' : 'sequence';
}

/** How Ctrl+D ends a line-mode session on a terminal: its summary lines, and how it settles. */
export interface EndKeyEnding {
  readonly lines: readonly string[];
  readonly settle: () => void;
}

/**
 * Runs a line-mode session for a pending question: `run` writes and reads through the dialog;
 * the end of input, a withdrawal or a failure ends it with `unanswered`'s summary lines. On a
 * terminal in cooked mode (plain mode), Ctrl+D on an empty line ends it as `endKey` says (as
 * Esc does a screen), and only it: the program goes on.
 */
export function startLineDialog(
  question: PendingQuestion<unknown>,
  terminal: LineTerminal,
  unanswered: (ending: UnansweredEnding, style: TerminalStyle) => readonly string[],
  run: (dialog: LineDialog) => Promise<void>,
  endKey?: (style: TerminalStyle) => EndKeyEnding,
): void {
  const { output, reader } = terminal;
  const style = terminalStyle({ env: terminal.env, stream: output, interactive: false });
  const reading = new AbortController();
  const onEndKey =
    endKey === undefined
      ? undefined
      : () => {
          const ending = endKey(style);
          finish(ending.lines, ending.settle);
        };
  let settled = false;
  let promptOpen = false;
  let timeSaid = false;
  let errorSeen = false;

  function finish(lines: readonly string[], settle: () => void = () => {}): void {
    if (settled) return;
    settled = true;
    stopListening();
    reading.abort();
    const newline = promptOpen ? '\n' : '';
    const text = `${newline}${lines.map((line) => `${line}\n`).join('')}`;
    writeLast(output, text, onOutputError, errorSeen);
    settle();
  }

  function outputFailed(error: unknown): void {
    const failure = askFailedError(error, 'the output failed');
    finish(unanswered({ kind: 'interrupted' }, style), () => question.reject(failure));
  }

  // Whoever read the output is gone (`| head`, EPIPE): nobody sees the question, so it fails
  // rather than waiting for a line, and the error is the question's, not an uncaught one.
  // First in line: the question settles before a host's own listener reacts.
  function onOutputError(error: unknown): void {
    errorSeen = true;
    outputFailed(error);
  }
  output.prependListener('error', onOutputError);

  /** Waits until what the terminal holds has arrived (or the dialog ended), then drops it. */
  async function dropTypedAhead(): Promise<void> {
    let dropped = reader.discard();
    await new Promise<void>((resolve) => {
      const done = (): void => {
        reading.signal.removeEventListener('abort', done);
        cancel();
        resolve();
      };
      const cancel = afterPendingInput(done);
      reading.signal.addEventListener('abort', done, { once: true });
    });
    dropped += reader.discard();
    if (dropped > 0 && !settled) {
      const lines = dropped === 1 ? 'a line' : `${dropped} lines`;
      output.write(`${style.dim(`Ignored ${lines} typed before this was shown.`)}\n`);
    }
  }

  async function read(
    prompt: string,
    parse: (line: string) => LineAnswer,
    options: LineReadOptions = {},
  ): Promise<AcceptedLine | undefined> {
    if (options.onlyAfterPrompt === true && terminal.keyboard) await dropTypedAhead();
    const { deadline } = terminal;
    if (deadline !== undefined && !timeSaid) {
      // Said once, before the first prompt: nothing is redrawn here to count down.
      timeSaid = true;
      const left = timeLeftText(deadline - (terminal.now ?? Date.now)());
      output.write(`${style.dim(`${timeLimitSentence(left)}.`)}\n`);
    }
    while (!settled) {
      output.write(prompt);
      promptOpen = true;
      let line: string | undefined;
      try {
        line = await reader.read({ signal: reading.signal, ...(onEndKey && { onEndKey }) });
      } catch {
        return undefined; // Ended while waiting; `finish` already wrote its lines.
      }
      if (settled) return undefined;
      if (line === undefined) {
        const closed = inputClosedError('the input ended');
        finish(unanswered({ kind: 'input-closed' }, style), () => question.withdraw(closed));
        return undefined;
      }
      // A terminal echoed the line and its Enter itself: the cursor is on the next line already.
      if (!terminal.keyboard) output.write(`${neutralizeText(line)}\n`);
      promptOpen = false;
      // An escape sequence is never part of an answer: Esc alone declines, as on a screen (never
      // the recommended option, which an empty line would take); arrow keys, which a cooked
      // terminal cannot act on, make the line ask again.
      const escaped = escapeIn(line);
      if (escaped === 'esc' && onEndKey !== undefined) {
        onEndKey();
        return undefined;
      }
      if (escaped !== undefined) {
        const declines = onEndKey === undefined ? '' : ' (Esc alone declines.)';
        output.write(`${style.warning(`${ESCAPE_MESSAGE}${declines}`)}\n`);
        continue;
      }
      const parsed = parse(line);
      if (parsed.kind !== 'retry') return parsed;
      output.write(`${style.warning(parsed.message)}\n`);
    }
    return undefined;
  }

  // Withdrawn while waiting for a line: only the summary lines are written.
  const stopListening = whenWithdrawn(question, (ending) => finish(unanswered(ending, style)));
  if (outputBroken(output)) {
    // An output that failed earlier may report nothing more: no error would end the wait.
    outputFailed(new Error('the output was closed'));
    return;
  }

  run({ style, write: (text) => output.write(text), read, finish }).catch((error: unknown) => {
    const failure = askFailedError(error, 'the line-mode question failed');
    finish(unanswered({ kind: 'interrupted' }, style), () => question.reject(failure));
  });
}

/** A line-mode dialog of one question, every ending said in one summary line under its title. */
export interface TitledLineDialog extends Omit<LineDialog, 'finish'> {
  /** Ends the dialog with the question's summary line for `ending`, then settles the question. */
  end(ending: QuestionEnding, settle: () => void): void;
}

/** How Ctrl+D ends a titled session: what its summary line says, and how it settles. */
export interface TitledEndKey {
  readonly ending: QuestionEnding;
  readonly settle: () => void;
}

/**
 * `startLineDialog` for one question titled `title` (neutralised), whose every ending, answered
 * or not, is the one summary line of `summaryLine`.
 */
export function startTitledLineDialog(
  question: PendingQuestion<unknown>,
  terminal: LineTerminal,
  title: string,
  run: (dialog: TitledLineDialog) => Promise<void>,
  endKey?: TitledEndKey,
): void {
  const summary = (ending: QuestionEnding, style: TerminalStyle) => [
    summaryLine(title, ending, style),
  ];
  startLineDialog(
    question,
    terminal,
    summary,
    ({ style, write, read, finish }) =>
      run({
        style,
        write,
        read,
        end: (ending, settle) => finish(summary(ending, style), settle),
      }),
    endKey && ((style) => ({ lines: summary(endKey.ending, style), settle: endKey.settle })),
  );
}
