import { fitStatusLine, type StatusLine } from '../text/status-line.js';
import type { TerminalStyle } from '../text/terminal-style.js';
import { textWidth, textWidthUpTo, truncateText } from '../text/text-width.js';

/** How a question ended, as its one-line summary says. */
export type QuestionEnding =
  /** `refused`: the answer says no (an approval rejected), marked as a refusal. */
  | { readonly kind: 'answered'; readonly answer: string; readonly refused?: boolean }
  | { readonly kind: 'declined' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'withdrawn' }
  | { readonly kind: 'timed-out' }
  | { readonly kind: 'input-closed' }
  | { readonly kind: 'closed' }
  | { readonly kind: 'interrupted' };

/** How a question ended without an answer. */
export type UnansweredEnding = Exclude<QuestionEnding, { kind: 'answered' }>;

const STATUS: Record<Exclude<QuestionEnding['kind'], 'answered'>, string> = {
  declined: 'declined',
  cancelled: 'cancelled',
  withdrawn: 'withdrawn',
  'timed-out': 'timed out, withdrawn',
  'input-closed': 'not answered: input closed',
  closed: 'not answered: closed',
  interrupted: 'not answered: interrupted',
};

/** The parts of a summary line: its styled mark, and what it says after the title. */
function summaryParts(ending: QuestionEnding, style: TerminalStyle) {
  const { symbols } = style;
  const answered = ending.kind === 'answered';
  const detail = answered ? ending.answer : STATUS[ending.kind];
  const mark = answered
    ? ending.refused === true
      ? style.warning(symbols.refused)
      : style.success(symbols.answered)
    : ending.kind === 'declined' || ending.kind === 'cancelled'
      ? style.warning(symbols.refused)
      : style.dim(symbols.withdrawn);
  return { answered, detail, mark, separator: ` ${symbols.separator} ` };
}

/**
 * The line a question collapses to: its title and the answer (or what happened instead),
 * within `width` columns when a width is given. `title` and `answer` must be neutralised.
 */
export function summaryLine(
  title: string,
  ending: QuestionEnding,
  style: TerminalStyle,
  width = Number.POSITIVE_INFINITY,
): string {
  const { answered, detail, mark, separator } = summaryParts(ending, style);
  const room = width - 2 - separator.length;
  let shownTitle = title;
  let shownDetail = detail;
  // Only what can be shown is measured: a typed answer may be 100,000 characters long.
  const detailWidth = Number.isFinite(room) ? textWidthUpTo(detail, room + 1) : 0;
  if (Number.isFinite(room) && textWidthUpTo(title, room + 1) + detailWidth > room) {
    const titleRoom = Math.max(Math.floor(room / 2), room - detailWidth);
    shownTitle = truncateText(title, Math.max(1, titleRoom));
    shownDetail = truncateText(detail, Math.max(1, room - textWidth(shownTitle)));
  }
  const tail = answered ? style.accent(shownDetail) : style.dim(shownDetail);
  return `${mark} ${style.bold(shownTitle)}${style.dim(separator)}${tail}`;
}

/**
 * `summaryLine` for an answer that must be read whole (an approval's "always", which names the
 * rule it wrote): the title is cut, never the answer, which goes on rows under it when it does
 * not fit beside it. The answer must be short enough to show (a rule is).
 */
export function wholeAnswerSummary(
  title: string,
  ending: Extract<QuestionEnding, { kind: 'answered' }>,
  style: TerminalStyle,
  width: number,
): string[] {
  const { detail, mark, separator } = summaryParts(ending, style);
  const line: StatusLine = {
    head: `${mark} ${style.bold(title)}${style.dim(separator)}`,
    tail: [{ text: detail, style: style.accent }],
  };
  return fitStatusLine(line, width);
}
