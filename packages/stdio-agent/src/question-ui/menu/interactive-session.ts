import {
  type AskUserQuestionOption,
  type AskUserQuestionRequest,
  answerForOption,
  askCancelledError,
  askDeclinedError,
} from 'dsh-user-interaction/provider';
import { neutralizeText } from '../../text/neutralize-text.js';
import { terminalStyle } from '../../text/terminal-style.js';
import type { ScreenQuestion } from '../question-session.js';
import { questionView } from '../question-view.js';
import { type QuestionEnding, summaryLine } from '../summary-line.js';
import { initialMenuState, menuKeys, withWindow } from './menu-state.js';
import type { MenuOutcome, MenuState } from './menu-types.js';
import { questionSearch } from './option-search.js';
import { renderMenu } from './render-menu.js';
import { type InteractiveTerminal, runScreen } from './screen-session.js';
import { warmSearches } from './warm-searches.js';

export type { InteractiveTerminal } from './screen-session.js';

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
  const view = questionView(request);
  const search = questionSearch(view);
  const style = terminalStyle({ env: terminal.env, stream: terminal.output, interactive: true });

  function conclude(outcome: MenuOutcome): { ending: QuestionEnding; settle(): void } {
    switch (outcome.kind) {
      case 'option': {
        const option = view.options[outcome.index] as AskUserQuestionOption;
        const ending = { kind: 'answered', answer: view.label(outcome.index) } as const;
        return { ending, settle: () => question.resolve(answerForOption(option)) };
      }
      case 'text': {
        const ending = { kind: 'answered', answer: neutralizeText(outcome.text) } as const;
        return { ending, settle: () => question.resolve({ answer: outcome.text }) };
      }
      // One question never takes several choices: its Enter never confirms ticks.
      case 'confirm':
      case 'decline':
        return { ending: { kind: 'declined' }, settle: () => question.reject(askDeclinedError()) };
      case 'cancel':
        return {
          ending: { kind: 'cancelled' },
          settle: () => question.reject(askCancelledError()),
        };
    }
  }

  runScreen<MenuState, MenuOutcome, QuestionEnding>(
    question,
    {
      initial: initialMenuState({
        optionCount: view.optionCount,
        allowCustom: view.allowCustom,
        recommended: view.recommended,
        search,
      }),
      style,
      keys: menuKeys,
      render(state, size) {
        const drawn = renderMenu(view, state, size, style);
        return { lines: drawn.lines, state: withWindow(state, drawn.top, drawn.page) };
      },
      summary: (_state, ending, width) => [summaryLine(view.title, ending, style, width)],
      conclude: (_state, outcome) => conclude(outcome),
    },
    terminal,
  );
  warmSearches([search], () => question.settled);
}
