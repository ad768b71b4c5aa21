import {
  type AskUserQuestionOption,
  type AskUserQuestionRequest,
  answerForOption,
  askFailedError,
  inputClosedError,
} from 'dsh-user-interaction';
import { neutralizeText } from '../../text/neutralize-text.js';
import { type TerminalStyle, terminalStyle } from '../../text/terminal-style.js';
import { type ScreenQuestion, whenWithdrawn } from '../question-session.js';
import { type QuestionView, questionView } from '../question-view.js';
import { type QuestionEnding, summaryLine } from '../summary-line.js';
import type { TerminalOutput } from '../terminal/terminal-streams.js';
import { linePrompt, parseLineAnswer } from './line-answer.js';
import type { LineReader } from './line-reader.js';

/** Where a line-mode question reads and writes. */
export interface LineTerminal {
  readonly reader: LineReader;
  readonly output: TerminalOutput;
  readonly env: NodeJS.ProcessEnv;
  /** Write each line read after the prompt: the input is not a terminal, so nobody saw it typed. */
  readonly echo: boolean;
}

function indented(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => indent + line)
    .join('\n');
}

/** The question as a numbered list: the same on a terminal, in a pipe and in a log. */
function questionBlock(view: QuestionView, style: TerminalStyle): string {
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

/**
 * Asks a question as a numbered list and reads one line per attempt, settling it with the
 * answer; when it is withdrawn, writes its summary line and stops reading.
 */
export function startLineSession(
  question: ScreenQuestion,
  request: AskUserQuestionRequest,
  terminal: LineTerminal,
): void {
  const { output, reader } = terminal;
  const view = questionView(request);
  const style = terminalStyle({ env: terminal.env, stream: output, interactive: false });
  const reading = new AbortController();
  let settled = false;
  let promptOpen = false;

  function finish(ending: QuestionEnding, settle: () => void = () => {}): void {
    if (settled) return;
    settled = true;
    stopListening();
    reading.abort();
    const newline = promptOpen ? '\n' : '';
    output.write(`${newline}${summaryLine(view.title, ending, style)}\n`);
    settle();
  }

  async function run(): Promise<void> {
    output.write(questionBlock(view, style));
    const prompt = linePrompt(view);
    while (!settled) {
      output.write(prompt);
      promptOpen = true;
      let line: string | undefined;
      try {
        line = await reader.read({ signal: reading.signal });
      } catch {
        return; // The question was ended while waiting; `finish` already wrote its line.
      }
      if (settled) return;
      if (line === undefined) {
        const closed = inputClosedError('the input ended');
        finish({ kind: 'input-closed' }, () => question.withdraw(closed));
        return;
      }
      if (terminal.echo) output.write(neutralizeText(line));
      output.write('\n');
      promptOpen = false;
      const parsed = parseLineAnswer(view, line);
      if (parsed.kind === 'retry') {
        output.write(`${style.warning(parsed.message)}\n`);
        continue;
      }
      if (parsed.kind === 'option') {
        const option = view.options[parsed.index] as AskUserQuestionOption;
        const ending = { kind: 'answered', answer: view.label(parsed.index) } as const;
        finish(ending, () => question.resolve(answerForOption(option)));
      } else {
        const ending = { kind: 'answered', answer: neutralizeText(parsed.text) } as const;
        finish(ending, () => question.resolve({ answer: parsed.text }));
      }
    }
  }

  // Withdrawn while waiting for its line: only the summary line is written.
  const stopListening = whenWithdrawn(question, (ending) => finish(ending));
  run().catch((error: unknown) => {
    const failure = askFailedError(error, 'the line-mode question failed');
    finish({ kind: 'interrupted' }, () => question.reject(failure));
  });
}
