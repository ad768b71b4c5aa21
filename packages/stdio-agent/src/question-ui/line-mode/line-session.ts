import {
  type AskUserQuestionOption,
  type AskUserQuestionRequest,
  answerForOption,
  askDeclinedError,
} from 'dsh-user-interaction/provider';
import { neutralizeText } from '../../text/neutralize-text.js';
import type { ScreenQuestion } from '../question-session.js';
import { questionView } from '../question-view.js';
import { linePrompt, parseLineAnswer } from './line-answer.js';
import { type LineTerminal, questionBlock, startTitledLineDialog } from './line-dialog.js';

export type { LineTerminal } from './line-dialog.js';

/**
 * Asks a question as a numbered list and reads one line per attempt, settling it with the
 * answer (Ctrl+D on a terminal declines it); when it is withdrawn, writes its summary line and
 * stops reading.
 */
export function startLineSession(
  question: ScreenQuestion,
  request: AskUserQuestionRequest,
  terminal: LineTerminal,
): void {
  const view = questionView(request);
  startTitledLineDialog(
    question,
    terminal,
    view.title,
    async (dialog) => {
      dialog.write(questionBlock(view, dialog.style));
      // Ctrl+D (or Esc alone) declines on a terminal; a pipe has no such key.
      const endKey = !terminal.keyboard ? undefined : 'decline';
      const parsed = await dialog.read(linePrompt(view, false, endKey), (line) =>
        parseLineAnswer(view, line),
      );
      if (parsed === undefined) return;
      if (parsed.kind === 'option') {
        const option = view.options[parsed.index] as AskUserQuestionOption;
        dialog.end({ kind: 'answered', answer: view.label(parsed.index) }, () =>
          question.resolve(answerForOption(option)),
        );
      } else if (parsed.kind === 'text') {
        dialog.end({ kind: 'answered', answer: neutralizeText(parsed.text) }, () =>
          question.resolve({ answer: parsed.text }),
        );
      }
    },
    { ending: { kind: 'declined' }, settle: () => question.reject(askDeclinedError()) },
  );
}
