import { segmentGraphemes, standsAlone } from '../../text/text-width.js';

/** A user-perceived character, with the columns a caller measured for it. */
export interface MeasuredGrapheme {
  readonly text: string;
  readonly width: number;
}

/** Graphemes next to a place in a text, and whether the text goes on past the last of them. */
export interface GraphemeRun {
  /** Nearest first. */
  readonly graphemes: readonly MeasuredGrapheme[];
  readonly more: boolean;
}

// After one of these, a rule of grapheme segmentation may look further back than one code
// point (emoji ZWJ sequences, flag pairs, Indic conjuncts); and a surrogate may be half of
// one cut off. After any other code point, where a grapheme ends depends only on the next.
const LOOKS_BACK = /[\p{M}\p{Cf}\p{Cs}\u{1f1e6}-\u{1f1ff}\u{1f3fb}-\u{1f3ff}]/u;

/** Code units looked at first beyond one per column wanted; doubled until enough is found. */
const SPARE_UNITS = 16;

function segments(text: string): Iterable<string> {
  if (standsAlone(text)) return text;
  return Array.from(segmentGraphemes(text), ({ segment }) => segment);
}

/**
 * The graphemes of `text` from `start` (a grapheme boundary) on, until they measure more than
 * `columns` or the text ends. Reads a window that grows with what is needed, never the whole
 * text: the cost follows what is shown, not what was typed.
 */
export function graphemesAfter(
  text: string,
  start: number,
  columns: number,
  measure: (grapheme: string) => number,
): GraphemeRun {
  for (let span = columns + SPARE_UNITS; ; span *= 2) {
    const end = Math.min(text.length, start + span);
    const found: MeasuredGrapheme[] = [];
    let covered = 0;
    let offset = start;
    for (const grapheme of segments(text.slice(start, end))) {
      offset += grapheme.length;
      // The window may have cut the last grapheme short: only the text's end is certain.
      if (offset === end && end < text.length) break;
      const width = measure(grapheme);
      found.push({ text: grapheme, width });
      covered += width;
      if (covered > columns) return { graphemes: found, more: offset < text.length };
    }
    if (end === text.length) return { graphemes: found, more: false };
  }
}

/**
 * The graphemes of `text` that end at `end` (a grapheme boundary), nearest first, until they
 * measure more than `columns` or the text starts. Like `graphemesAfter`, it reads only a
 * window before `end`, and trusts a boundary in it only once a code point that no rule looks
 * back past lies between the window's start and that boundary.
 */
export function graphemesBefore(
  text: string,
  end: number,
  columns: number,
  measure: (grapheme: string) => number,
): GraphemeRun {
  for (let span = columns + SPARE_UNITS; ; span *= 2) {
    const start = Math.max(0, end - span);
    const trusted: string[] = [];
    // The window's start may fall inside a grapheme, or inside a sequence whose rules look
    // back: a boundary is trusted once an anchor lies between the start and it.
    let anchored = start === 0;
    for (const grapheme of segments(text.slice(start, end))) {
      if (anchored) trusted.push(grapheme);
      else anchored = hasAnchor(grapheme);
    }
    const found: MeasuredGrapheme[] = [];
    let covered = 0;
    let left = end;
    for (let index = trusted.length - 1; index >= 0; index--) {
      const grapheme = trusted[index] as string;
      const width = measure(grapheme);
      found.push({ text: grapheme, width });
      covered += width;
      left -= grapheme.length;
      if (covered > columns) return { graphemes: found, more: left > 0 };
    }
    if (start === 0) return { graphemes: found, more: false };
  }
}

/** True when some code point of `grapheme` ends every rule's look back. */
function hasAnchor(grapheme: string): boolean {
  for (const codePoint of grapheme) if (!LOOKS_BACK.test(codePoint)) return true;
  return false;
}

/** Where the grapheme before `index` starts (`index` a grapheme boundary). */
export function previousGraphemeStart(text: string, index: number): number {
  if (index <= 0) return 0;
  const [grapheme] = graphemesBefore(text, index, 0, () => 1).graphemes;
  return index - (grapheme?.text.length ?? index);
}

/** Where the grapheme at `index` ends (`index` a grapheme boundary). */
export function nextGraphemeEnd(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const [grapheme] = graphemesAfter(text, index, 0, () => 1).graphemes;
  return index + (grapheme?.text.length ?? text.length - index);
}

/** The last grapheme boundary of `text` at or before `index`: where it can be cut. */
export function graphemeCut(text: string, index: number): number {
  if (index >= text.length) return text.length;
  if (index <= 0) return 0;
  for (let span = SPARE_UNITS; ; span *= 2) {
    // The window reaches past `index`, so that every boundary up to it is decided with the
    // code point after it whole.
    const start = Math.max(0, index - span);
    const end = Math.min(text.length, index + span);
    let anchored = start === 0;
    let cut = start === 0 ? 0 : -1;
    let offset = start;
    for (const grapheme of segments(text.slice(start, end))) {
      if (offset > index) break;
      if (anchored) cut = offset;
      anchored ||= hasAnchor(grapheme);
      offset += grapheme.length;
    }
    if (cut >= 0) return cut;
  }
}
