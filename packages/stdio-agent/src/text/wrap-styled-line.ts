import { segmentGraphemes, textWidth } from './text-width.js';

/** A run of neutralised text, and the style it is drawn in. */
export interface StyledRun {
  readonly text: string;
  readonly style?: (text: string) => string;
}

/** A part of the plain line, from `start` to `end` (code units). */
interface Span {
  start: number;
  end: number;
}

/**
 * The word from `start` to `end` in pieces of one line each: the first in `firstRoom`
 * columns, the others in `laterRoom`.
 */
function wordPieces(
  plain: string,
  start: number,
  end: number,
  firstRoom: number,
  laterRoom: number,
): Span[] {
  const pieces: Span[] = [];
  let piece: Span = { start, end: start };
  let used = 0;
  for (const { index, segment } of segmentGraphemes(plain.slice(start, end))) {
    const width = textWidth(segment);
    const room = pieces.length === 0 ? firstRoom : laterRoom;
    if (used + width > room && piece.end > piece.start) {
      pieces.push(piece);
      piece = { start: start + index, end: start + index };
      used = 0;
    }
    piece.end = start + index + segment.length;
    used += width;
  }
  pieces.push(piece);
  return pieces;
}

/** The text from `start` to `end`, each run in its own style. */
function render(runs: readonly StyledRun[], start: number, end: number): string {
  let shown = '';
  let offset = 0;
  for (const run of runs) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + run.text.length);
    if (from < to) {
      const text = run.text.slice(from - offset, to - offset);
      shown += run.style === undefined ? text : run.style(text);
    }
    offset += run.text.length;
  }
  return shown;
}

/**
 * Wraps a line made of styled runs to lines of at most `width` columns: at spaces where
 * possible, inside a word only when the word alone is too wide. Each run keeps its style on
 * every line it reaches, and the lines after the first start with `indent`.
 */
export function wrapStyledLine(runs: readonly StyledRun[], width: number, indent = ''): string[] {
  const plain = runs.map((run) => run.text).join('');
  const first = Math.max(1, width);
  const rest = Math.max(1, width - textWidth(indent));
  const lines: Span[] = [];
  // Spaces that start the line stay on its first row, as an indent of its own.
  const leading = /^ */.exec(plain)?.[0].length ?? 0;
  let line: Span | undefined = leading > 0 ? { start: 0, end: leading } : undefined;
  let used = leading;
  const room = (): number => (lines.length === 0 ? first : rest);
  for (const match of plain.matchAll(/[^ ]+/g)) {
    const start = match.index;
    const end = start + match[0].length;
    const wordWidth = textWidth(match[0]);
    if (line !== undefined && used + (start - line.end) + wordWidth <= room()) {
      used += start - line.end + wordWidth;
      line.end = end;
      continue;
    }
    if (line !== undefined) lines.push(line);
    const pieces =
      wordWidth <= room() ? [{ start, end }] : wordPieces(plain, start, end, room(), rest);
    line = pieces.pop() as Span;
    lines.push(...pieces);
    used = textWidth(plain.slice(line.start, line.end));
  }
  lines.push(line ?? { start: 0, end: 0 });
  return lines.map(
    (span, index) => (index === 0 ? '' : indent) + render(runs, span.start, span.end),
  );
}
