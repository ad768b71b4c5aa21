import {
  type AskUserQuestionItem,
  type AskUserQuestionItemAnswer,
  type AskUserQuestionOption,
  type AskUserQuestionsAnswer,
  type AskUserQuestionsRequest,
  answerForItem,
  askCancelledError,
  askDeclinedError,
  type PendingQuestion,
} from 'dsh-user-interaction/provider';
import { neutralizeText } from '../../text/neutralize-text.js';
import { type TerminalStyle, terminalStyle } from '../../text/terminal-style.js';
import { type OptionSearch, questionSearch } from '../menu/option-search.js';
import { type InteractiveTerminal, runScreen } from '../menu/screen-session.js';
import { warmSearches } from '../menu/warm-searches.js';
import { type QuestionView, questionView } from '../question-view.js';
import { summaryLine, type UnansweredEnding } from '../summary-line.js';
import { batchAnswerText } from './batch-answer-text.js';
import {
  type BatchAnswer,
  type BatchOutcome,
  type BatchState,
  batchKeys,
  initialBatchState,
  pageAnswer,
} from './batch-state.js';
import { renderBatch } from './render-batch.js';

/** Several questions, waiting for the person's answers. */
export type BatchQuestion = PendingQuestion<AskUserQuestionsAnswer>;

/** How the screen of several questions ended: every question answered, or none. */
type BatchEnding = { readonly kind: 'answered' } | UnansweredEnding;

/** The contract's answer to one question, from what the screen holds. */
export function itemAnswer(
  item: AskUserQuestionItem,
  answer: BatchAnswer,
): AskUserQuestionItemAnswer {
  const options = item.options ?? [];
  switch (answer.kind) {
    case 'option':
      return answerForItem(item, [options[answer.index] as AskUserQuestionOption]);
    case 'text':
      return answerForItem(item, [], answer.text);
    case 'options':
      return answerForItem(
        item,
        answer.indexes.map((index) => options[index] as AskUserQuestionOption),
        answer.text,
      );
  }
}

/**
 * The lines several questions collapse to: one per question, with its answer, or with what
 * happened instead (then no question reads as answered: the set is answered whole or not at all).
 */
export function batchSummary(
  views: readonly QuestionView[],
  answers: readonly (BatchAnswer | undefined)[],
  ending: BatchEnding,
  style: TerminalStyle,
  width = Number.POSITIVE_INFINITY,
): string[] {
  return views.map((view, index) => {
    const answer = answers[index];
    const shown =
      ending.kind === 'answered' && answer !== undefined
        ? ({ kind: 'answered', answer: batchAnswerText(view, answer) } as const)
        : ending.kind === 'answered'
          ? ({ kind: 'interrupted' } as const)
          : ending;
    return summaryLine(view.title, shown, style, width);
  });
}

/**
 * Shows several questions on one interactive screen (a page each, then a review), and settles
 * them with every answer, or declined or cancelled as a whole; when they are withdrawn, only
 * clears the screen. Throws, having given the terminal back, when nothing can be shown.
 */
export function startBatchSession(
  question: BatchQuestion,
  request: AskUserQuestionsRequest,
  terminal: InteractiveTerminal,
): void {
  const views = request.questions.map(questionView);
  const searches = views.map(questionSearch);
  const style = terminalStyle({ env: terminal.env, stream: terminal.output, interactive: true });
  const header = request.header === undefined ? undefined : neutralizeText(request.header.trim());
  const answersOf = (state: BatchState) => views.map((_view, index) => pageAnswer(state, index));

  function conclude(state: BatchState, outcome: BatchOutcome) {
    switch (outcome.kind) {
      case 'submit': {
        const answers = request.questions.map((item, index) =>
          itemAnswer(item, pageAnswer(state, index) as BatchAnswer),
        );
        const ending: BatchEnding = { kind: 'answered' };
        return { ending, settle: () => question.resolve({ answers }) };
      }
      case 'decline':
        return {
          ending: { kind: 'declined' } as const,
          settle: () => question.reject(askDeclinedError()),
        };
      case 'cancel':
        return {
          ending: { kind: 'cancelled' } as const,
          settle: () => question.reject(askCancelledError()),
        };
    }
  }

  runScreen<BatchState, BatchOutcome, BatchEnding>(
    question,
    {
      initial: initialBatchState(
        views.map((view, index) => ({
          optionCount: view.optionCount,
          allowCustom: view.allowCustom,
          recommended: view.recommended,
          multiSelect: request.questions[index]?.multiSelect === true,
          search: searches[index] as OptionSearch,
        })),
      ),
      style,
      keys: batchKeys,
      render: (state, size) => renderBatch(views, state, size, style, header),
      summary: (state, ending, width) =>
        batchSummary(views, answersOf(state), ending, style, width),
      conclude,
    },
    terminal,
  );
  warmSearches(searches, () => question.settled);
}
