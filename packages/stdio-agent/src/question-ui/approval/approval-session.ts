import {
  askCancelledError,
  type PendingQuestion,
  type PermissionAnswer,
  type PermissionRequest,
} from 'dsh-user-interaction/provider';
import { terminalStyle } from '../../text/terminal-style.js';
import { type LineTerminal, startTitledLineDialog } from '../line-mode/line-dialog.js';
import { type InteractiveTerminal, runScreen } from '../menu/screen-session.js';
import { type QuestionEnding, summaryLine } from '../summary-line.js';
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
  choiceNumbered,
  choiceSummary,
  loadDiff,
  offeredNumbers,
  styledBodyLine,
} from './approval-view.js';

/** An approval on screen: the provider's pending request. */
export type ScreenApproval = PendingQuestion<PermissionAnswer>;

/** The view of a request, with the diff module loaded first when it shows an edit. */
export async function viewOf(request: PermissionRequest): Promise<ApprovalView> {
  return approvalView(request, request.edit === undefined ? undefined : await loadDiff());
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
      summary: (_state, ending, width) => [summaryLine(view.title, ending, style, width)],
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

/** What a line of line mode chooses: `y`, `n`, a number, or the start of a choice's label. */
function parseChoice(
  view: ApprovalView,
  line: string,
): ApprovalView['choices'][number] | undefined {
  const text = line.trim().toLowerCase();
  if (text === 'y' || text === 'yes') return view.choices.find((item) => item.letter === 'y');
  if (text === 'n' || text === 'no') return view.choices.find((item) => item.letter === 'n');
  if (/^\d+$/.test(text)) return choiceNumbered(view, Number(text));
  return undefined;
}

/**
 * Asks an approval in line mode (plain mode, a pipe): the title, what it touches, the command
 * or the whole diff, then the numbered choices, read one line per attempt; `y` allows once and
 * `n` (or Ctrl+D on a terminal) rejects once. The end of the input denies (`INPUT_CLOSED`).
 */
export function startLineApprovalSession(
  question: ScreenApproval,
  view: ApprovalView,
  terminal: LineTerminal,
): void {
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
        ...view.choices.map(
          (item) =>
            `  ${item.number}. ${item.label}${item.letter === undefined ? '' : style.dim(` (${item.letter})`)}`,
        ),
      ];
      dialog.write(`${lines.join('\n')}\n`);
      const numbers = offeredNumbers(view);
      const parsed = await dialog.read(`Allow? ${offeredNumbers(view, ['y', 'n'])}: `, (line) => {
        const choice = parseChoice(view, line);
        return choice === undefined
          ? {
              kind: 'retry',
              message: `Type y to allow once, n to reject, or the number of a choice (${numbers}).`,
            }
          : { kind: 'text', text: choice.choice };
      });
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
