import {
  type AskUserQuestionOption,
  type AskUserQuestionRequest,
  answerForOption,
  askDeclinedError,
} from 'dsh-user-interaction';
import { neutralizeText } from '../../text/neutralize-text.js';
import type { ScreenQuestion } from '../question-session.js';
import { questionView } from '../question-view.js';
import { summaryLine } from '../summary-line.js';
import { linePrompt, parseLineAnswer } from './line-answer.js';
import { type LineTerminal, questionBlock, startLineDialog } from './line-dialog.js';

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
  startLineDialog(
    question,
    terminal,
    (ending, style) => [summaryLine(view.title, ending, style)],
    async (dialog) => {
      const { style } = dialog;
      dialog.write(questionBlock(view, style));
      const parsed = await dialog.read(linePrompt(view), (line) => parseLineAnswer(view, line));
      if (parsed === undefined) return;
      if (parsed.kind === 'option') {
        const option = view.options[parsed.index] as AskUserQuestionOption;
        const ending = { kind: 'answered', answer: view.label(parsed.index) } as const;
        dialog.finish([summaryLine(view.title, ending, style)], () =>
          question.resolve(answerForOption(option)),
        );
      } else if (parsed.kind === 'text') {
        const ending = { kind: 'answered', answer: neutralizeText(parsed.text) } as const;
        dialog.finish([summaryLine(view.title, ending, style)], () =>
          question.resolve({ answer: parsed.text }),
        );
      }
    },
    (style) => ({
      lines: [summaryLine(view.title, { kind: 'declined' }, style)],
      settle: () => question.reject(askDeclinedError()),
    }),
  );
}
