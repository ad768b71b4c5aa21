import { fitStyledLine, styledWidth } from './fit-styled-line.js';
import { textWidth } from './text-width.js';
import { type StyledRun, wrapStyledLine } from './wrap-styled-line.js';

/**
 * A line of the transcript in two parts: a head (what ran, a message) that may be cut to the
 * width, and a tail that never is: an error code, a rule and the file it lives in.
 */
export interface StatusLine {
  /** Styled text. */
  readonly head: string;
  readonly tail: readonly StyledRun[];
}

/** The fewest columns the head keeps when the tail shares its row. */
const HEAD_ROOM = 20;

function styledRuns(runs: readonly StyledRun[]): string {
  return runs.map((run) => (run.style === undefined ? run.text : run.style(run.text))).join('');
}

/** The whole line, styled, on one row (a pipe, a log, or a terminal that wraps it itself). */
export function statusText(line: StatusLine): string {
  return line.head + styledRuns(line.tail);
}

/**
 * The line in rows of at most `width` columns (`undefined`: one row, whole). It stays one row
 * when it fits; else the head is cut (`…`) to leave the tail its room; and when the tail alone
 * leaves the head too little, the tail goes under it, wrapped at words and indented, whole.
 */
export function fitStatusLine(line: StatusLine, width: number | undefined): string[] {
  if (width === undefined) return [statusText(line)];
  const tailWidth = textWidth(line.tail.map((run) => run.text).join(''));
  if (styledWidth(line.head) + tailWidth <= width) return [statusText(line)];
  if (tailWidth + HEAD_ROOM <= width) {
    return [fitStyledLine(line.head, width - tailWidth) + styledRuns(line.tail)];
  }
  const [first, ...rest] = line.tail;
  const tail = first === undefined ? [] : [{ ...first, text: first.text.trimStart() }, ...rest];
  const rows = wrapStyledLine(tail, Math.max(1, width - 2)).map((row) => `  ${row}`);
  return [fitStyledLine(line.head, width), ...rows];
}
