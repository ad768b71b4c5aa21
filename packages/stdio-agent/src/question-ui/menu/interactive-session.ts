import type { Interface } from 'node:readline';
import {
  type AskUserQuestionOption,
  type AskUserQuestionRequest,
  answerForOption,
  askCancelledError,
  askDeclinedError,
  askFailedError,
  inputClosedError,
} from 'dsh-user-interaction';
import { neutralizeText } from '../../text/neutralize-text.js';
import { terminalStyle } from '../../text/terminal-style.js';
import { type ScreenQuestion, whenWithdrawn } from '../question-session.js';
import { questionView } from '../question-view.js';
import { type QuestionEnding, summaryLine } from '../summary-line.js';
import { FrameWriter } from '../terminal/frame-writer.js';
import type { KeyPress } from '../terminal/key.js';
import { guardTerminal, type TerminalGuard } from '../terminal/terminal-guard.js';
import type { TerminalInput, TerminalOutput } from '../terminal/terminal-streams.js';
import { initialMenuState, type MenuOutcome, menuKeys, withWindow } from './menu-state.js';
import { renderMenu, type ScreenSize } from './render-menu.js';

/** The terminal an interactive question runs on. */
export interface InteractiveTerminal {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  readonly readline: Interface | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly escapeCodeTimeout: number | undefined;
}

const DEFAULT_SIZE: ScreenSize = { columns: 80, rows: 24 };

/**
 * Shows a question as an interactive menu (or a line editor when it has no options), and
 * settles it with what the person does; when it is withdrawn, only clears the screen. Throws,
 * having given the terminal back, when the question cannot be shown at all.
 */
export function startInteractiveSession(
  question: ScreenQuestion,
  request: AskUserQuestionRequest,
  terminal: InteractiveTerminal,
): void {
  const { output } = terminal;
  const view = questionView(request);
  const style = terminalStyle({ env: terminal.env, stream: output, interactive: true });
  const frame = new FrameWriter();
  let state = initialMenuState({
    optionCount: view.optionCount,
    allowCustom: view.allowCustom,
    recommended: view.recommended,
  });
  let settled = false;

  function size(): ScreenSize {
    const { columns, rows } = output;
    return columns && rows ? { columns, rows } : DEFAULT_SIZE;
  }

  function draw(): string {
    const drawn = renderMenu(view, state, size(), style);
    state = withWindow(state, drawn.top, drawn.page);
    return frame.render(drawn.lines);
  }

  function collapsed(ending: QuestionEnding): string {
    const summary = summaryLine(view.title, ending, style, size().columns - 1);
    return `${frame.clear()}${summary}\r\n`;
  }

  /** Collapses the question to its summary line and gives the terminal back, then settles it. */
  function finish(ending: QuestionEnding, settle: () => void = () => {}): void {
    if (settled) return;
    settled = true;
    stopListening();
    let text: string;
    try {
      text = collapsed(ending);
    } catch {
      // Whatever failed, the terminal is given back, with at least the menu erased.
      text = frame.clear();
    }
    guard.release(text);
    settle();
  }

  function conclude(outcome: MenuOutcome): void {
    switch (outcome.kind) {
      case 'option': {
        const option = view.options[outcome.index] as AskUserQuestionOption;
        const ending = { kind: 'answered', answer: view.label(outcome.index) } as const;
        finish(ending, () => question.resolve(answerForOption(option)));
        return;
      }
      case 'text': {
        const ending = { kind: 'answered', answer: neutralizeText(outcome.text) } as const;
        finish(ending, () => question.resolve({ answer: outcome.text }));
        return;
      }
      case 'decline':
        finish({ kind: 'declined' }, () => question.reject(askDeclinedError()));
        return;
      case 'cancel':
        finish({ kind: 'cancelled' }, () => question.reject(askCancelledError()));
    }
  }

  /** Runs a step of the question; a failure ends it with ASK_FAILED, the terminal restored. */
  function safely(step: () => void): void {
    if (settled) return;
    try {
      step();
    } catch (error) {
      const failure = askFailedError(error, 'the terminal question failed');
      finish({ kind: 'interrupted' }, () => question.reject(failure));
    }
  }

  /** The keys of one input chunk: applied in order, then drawn once. */
  function onKeys(presses: readonly KeyPress[]): void {
    safely(() => {
      const next = menuKeys(state, presses);
      state = next.state;
      if (next.outcome !== undefined) conclude(next.outcome);
      else guard.write(draw());
    });
  }

  const guard: TerminalGuard = guardTerminal({
    input: terminal.input,
    output,
    readline: terminal.readline,
    escapeCodeTimeout: terminal.escapeCodeTimeout,
    onKeys,
    onResize() {
      safely(() => {
        frame.invalidate(size().columns);
        guard.write(draw());
      });
    },
    onInputEnd(cause) {
      const closed = inputClosedError('the input ended', cause);
      finish({ kind: 'input-closed' }, () => question.withdraw(closed));
    },
    onTerminate(signal) {
      const closed = inputClosedError(`the program is terminating (${signal})`);
      finish({ kind: 'interrupted' }, () => question.withdraw(closed));
    },
    exitText: () => collapsed({ kind: 'interrupted' }),
  });
  // Withdrawn while on screen: only the summary line stays.
  const stopListening = whenWithdrawn(question, (ending) => finish(ending));
  try {
    guard.write(draw());
  } catch (error) {
    // Nothing usable reached the screen: give the terminal back and let the caller know.
    settled = true;
    stopListening();
    guard.release(frame.clear());
    throw error;
  }
}
