import type { PermissionChoice } from 'dsh-user-interaction/provider';
import type { TerminalStyle } from '../../text/terminal-style.js';
import {
  type ApprovalChoice,
  type ApprovalView,
  choiceNumbered,
  offeredNumbers,
} from './approval-view.js';

/**
 * The words that pick a choice on a pipe. Numbers are refused there: a script written for the
 * questions answers them with numbers, and a `1` or `2` meant for a question the model moved
 * behind this approval must never allow a call or write a rule.
 */
const PIPED_WORDS: Readonly<Partial<Record<PermissionChoice, readonly string[]>>> = {
  allow_once: ['y', 'yes'],
  allow_always: ['always'],
  reject_once: ['n', 'no'],
};

/** The word a choice is named by on a pipe, or `undefined` when no word picks it there. */
function pipedWord(choice: ApprovalChoice): string | undefined {
  return PIPED_WORDS[choice.choice]?.[0];
}

/**
 * What a line of line mode chooses: `y`/`yes`, `n`/`no` and `always` (trimmed, any case); at a
 * keyboard also the number of a choice. On a pipe nothing else, numbers included.
 */
export function lineChoice(
  view: ApprovalView,
  line: string,
  piped: boolean,
): ApprovalChoice | undefined {
  const text = line.trim().toLowerCase();
  const worded = view.choices.find((item) => PIPED_WORDS[item.choice]?.includes(text));
  if (worded !== undefined) return worded;
  if (!piped && /^\d+$/.test(text)) return choiceNumbered(view, Number(text));
  return undefined;
}

/** The choices as line mode lists them: numbered at a keyboard, by their words on a pipe. */
export function lineChoices(view: ApprovalView, piped: boolean, style: TerminalStyle): string[] {
  if (!piped) {
    return view.choices.map(
      (item) =>
        `  ${item.number}. ${item.label}${item.letter === undefined ? '' : style.dim(` (${item.letter})`)}`,
    );
  }
  return view.choices.flatMap((item) => {
    const word = pipedWord(item);
    return word === undefined ? [] : [`  ${item.label}${style.dim(` (${word})`)}`];
  });
}

/** The words a pipe may answer with, as a prompt says them: `y, n or always`. */
function pipedWords(view: ApprovalView): string {
  const order: readonly PermissionChoice[] = ['allow_once', 'reject_once', 'allow_always'];
  const words = order.flatMap((choice) => {
    const item = view.choices.find((each) => each.choice === choice);
    const word = item === undefined ? undefined : pipedWord(item);
    return word === undefined ? [] : [word];
  });
  return words.length === 1
    ? (words[0] as string)
    : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The prompt under an approval in line mode. */
export function linePrompt(view: ApprovalView, piped: boolean): string {
  if (!piped) return `Allow? ${offeredNumbers(view, ['y', 'n'])}: `;
  return `Allow? ${pipedWords(view)} (no numbers from a pipe): `;
}

/** What line mode says after a line that chooses nothing. */
export function lineRetry(view: ApprovalView, piped: boolean): string {
  if (!piped) {
    return `Type y to allow once, n to reject, or the number of a choice (${offeredNumbers(view)}).`;
  }
  return `From a pipe an approval takes only ${pipedWords(view)}, never a number: a line written for a question must not approve a call.`;
}
