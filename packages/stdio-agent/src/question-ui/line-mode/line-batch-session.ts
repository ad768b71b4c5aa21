import { type AskUserQuestionsRequest, askDeclinedError } from 'dsh-user-interaction/provider';
import { neutralizeText } from '../../text/neutralize-text.js';
import { type BatchQuestion, batchSummary, itemAnswer } from '../batch/batch-session.js';
import type { BatchAnswer } from '../batch/batch-state.js';
import { questionView } from '../question-view.js';
import { linePrompt, parseLineAnswer, parseMultiLineAnswer } from './line-answer.js';
import { type LineTerminal, questionBlock, startLineDialog } from './line-dialog.js';

/**
 * Asks several questions in line mode, one after another, each as a numbered list read one
 * line per attempt (a wrong line asks that question again). Once every question has its
 * answer, writes a summary line per question and settles them all; Ctrl+D on a terminal
 * declines them all, and the end of input or a withdrawal ends them all, none answered.
 */
export function startLineBatchSession(
  question: BatchQuestion,
  request: AskUserQuestionsRequest,
  terminal: LineTerminal,
): void {
  const views = request.questions.map(questionView);
  const answers: (BatchAnswer | undefined)[] = [];
  startLineDialog(
    question,
    terminal,
    (ending, style) => batchSummary(views, answers, ending, style),
    async (dialog) => {
      const { style } = dialog;
      const count = views.length;
      if (request.header !== undefined) {
        dialog.write(`${style.bold(neutralizeText(request.header.trim()))}\n`);
      }
      for (const [index, view] of views.entries()) {
        const multiSelect = request.questions[index]?.multiSelect === true;
        if (count > 1) dialog.write(`${style.dim(`Question ${index + 1} of ${count}`)}\n`);
        dialog.write(questionBlock(view, style));
        const endKey = !terminal.keyboard ? undefined : count > 1 ? 'decline all' : 'decline';
        const parsed = await dialog.read(linePrompt(view, multiSelect, endKey), (line) =>
          multiSelect ? parseMultiLineAnswer(view, line) : parseLineAnswer(view, line),
        );
        if (parsed === undefined) return;
        answers.push(parsed);
      }
      const items = request.questions.map((item, index) =>
        itemAnswer(item, answers[index] as BatchAnswer),
      );
      dialog.finish(batchSummary(views, answers, { kind: 'answered' }, style), () =>
        question.resolve({ answers: items }),
      );
    },
    (style) => ({
      lines: batchSummary(views, answers, { kind: 'declined' }, style),
      settle: () => question.reject(askDeclinedError()),
    }),
  );
}
