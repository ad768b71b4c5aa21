import {
  askCancelledError,
  type PendingQuestion,
  type PermissionAnswer,
  type PermissionRequest,
} from 'dsh-user-interaction/provider';
import { terminalStyle } from '../../text/terminal-style.js';
import { type LineTerminal, startTitledLineDialog } from '../line-mode/line-dialog.js';
import { type InteractiveTerminal, runScreen } from '../menu/screen-session.js';
import { type QuestionEnding, summaryLine, wholeAnswerSummary } from '../summary-line.js';
import {
  type ApprovalOutcome,
  type ApprovalState,
  approvalKeys,
  INITIAL_APPROVAL_STATE,
  renderApproval,
} from './approval-screen.js';
import {
  type ApprovalView,
  approvalView,
  choiceSummary,
  loadDiff,
  styledBodyLine,
} from './approval-view.js';
import { lineChoice, lineChoices, linePrompt, lineRetry } from './line-approval-choice.js';

/** An approval on screen: the provider's pending request. */
export type ScreenApproval = PendingQuestion<PermissionAnswer>;

/** The view of a request, with the diff module loaded first when it shows an edit. */
export async function viewOf(request: PermissionRequest): Promise<ApprovalView> {
  return approvalView(request, request.edit === undefined ? undefined : await loadDiff());
}

/** What the summary line says for the "always" choices of `view`: each names its rule. */
function alwaysAnswers(view: ApprovalView): string[] {
  return view.choices
    .filter((item) => item.choice === 'allow_always' || item.choice === 'reject_always')
    .map((item) => choiceSummary(item.choice, view));
}

/**
 * Shows an approval as an interactive screen and settles it with the person's choice (Ctrl+C
 * dismisses it: `ASK_CANCELLED`, which cancels the turn); when it is withdrawn, only clears.
 */
export function startApprovalSession(
  question: ScreenApproval,
  view: ApprovalView,
  terminal: InteractiveTerminal,
): void {
  const style = terminalStyle({ env: terminal.env, stream: terminal.output, interactive: true });
  runScreen<ApprovalState, ApprovalOutcome, QuestionEnding>(
    question,
    {
      initial: INITIAL_APPROVAL_STATE,
      style,
      keys: (state, presses) => approvalKeys(view, state, presses),
      render: (state, size) => renderApproval(view, state, size, style),
      summary: (_state, ending, width) =>
        // An "always" answer names the rule it wrote: said whole, never cut.
        ending.kind === 'answered' && alwaysAnswers(view).includes(ending.answer)
          ? wholeAnswerSummary(view.title, ending, style, width)
          : [summaryLine(view.title, ending, style, width)],
      conclude(_state, outcome) {
        if (outcome.kind === 'cancel') {
          return {
            ending: { kind: 'cancelled' },
            settle: () => question.reject(askCancelledError()),
          };
        }
        const { choice } = outcome;
        return {
          ending: {
            kind: 'answered',
            answer: choiceSummary(choice, view),
            refused: choice.startsWith('reject'),
          },
          settle: () => question.resolve({ choice }),
        };
      },
    },
    terminal,
  );
}

/**
 * Asks an approval in line mode (plain mode, a pipe): the title, what it touches, the command
 * or the whole diff, then the choices, read one line per attempt (see `lineChoice`); a line
 * typed before the prompt was shown never answers. `n` (or Ctrl+D on a terminal) rejects once.
 * The end of the input denies (`INPUT_CLOSED`).
 */
export function startLineApprovalSession(
  question: ScreenApproval,
  view: ApprovalView,
  terminal: LineTerminal,
): void {
  const piped = !terminal.keyboard;
  startTitledLineDialog(
    question,
    terminal,
    view.title,
    async (dialog) => {
      const { style } = dialog;
      const lines = [
        `${style.warning('?')} ${style.bold(`Allow this? ${view.title}`)}`,
        `  ${style.dim(view.detail)}`,
        ...view.body.map((line) => `  ${styledBodyLine(line, style)}`),
        ...lineChoices(view, piped, style),
      ];
      dialog.write(`${lines.join('\n')}\n`);
      const parsed = await dialog.read(
        linePrompt(view, piped),
        (line) => {
          const choice = lineChoice(view, line, piped);
          return choice === undefined
            ? { kind: 'retry', message: lineRetry(view, piped) }
            : { kind: 'text', text: choice.choice };
        },
        { onlyAfterPrompt: true },
      );
      if (parsed === undefined || parsed.kind !== 'text') return;
      const choice = parsed.text as PermissionAnswer['choice'];
      const ending = {
        kind: 'answered',
        answer: choiceSummary(choice, view),
        refused: choice.startsWith('reject'),
      } as const;
      dialog.end(ending, () => question.resolve({ choice }));
    },
    // Ctrl+D on a terminal rejects, as Esc does on the screen.
    view.choices.some((item) => item.choice === 'reject_once')
      ? {
          ending: { kind: 'answered', answer: choiceSummary('reject_once', view), refused: true },
          settle: () => question.resolve({ choice: 'reject_once' }),
        }
      : undefined,
  );
}
