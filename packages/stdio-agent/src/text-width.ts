// Characters that each take exactly one column, alone or next to each other: printable
// Latin, Greek and Cyrillic, common punctuation, and the symbols of the UI. Text made only
// of them is measured by its length, without segmenting it (the slow path).
const NARROW =
  /^[\u0020-\u007e\u00a0-\u00a8\u00aa-\u00ac\u00af-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u0482\u048a-\u052f\u1e00-\u1eff\u2010-\u2027\u2030-\u203b\u2190-\u2193\u21b5\u2298\u270e\u2714\u2716\u276f]*$/;
// Until the exact tables are loaded: East Asian wide and emoji ranges take two columns,
// marks and invisible format characters none.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /[\p{M}\p{Cf}]/u;
const ELLIPSIS = '…';

let exactWidth: ((text: string) => number) | undefined;
let loading: Promise<void> | undefined;
let segmenter: Intl.Segmenter | undefined;

/**
 * Loads the exact width tables (`string-width`). Loading them takes tens of milliseconds,
 * so it happens only for interactive questions, in the background; until it is done,
 * `textWidth` estimates the width of text that is not plain Latin, Greek or Cyrillic.
 */
export function loadTextWidth(): Promise<void> {
  loading ??= import('string-width').then((module) => {
    exactWidth = module.default;
  });
  return loading;
}

/** True once `textWidth` is exact for every text. */
export function textWidthExact(): boolean {
  return exactWidth !== undefined;
}

/** Changes when widths become exact: whatever was measured before must be measured again. */
export function widthEpoch(): number {
  return exactWidth === undefined ? 0 : 1;
}

function estimateWidth(text: string): number {
  let width = 0;
  for (const character of text) {
    if (ZERO_WIDTH.test(character)) continue;
    width += WIDE.test(character) ? 2 : 1;
  }
  return width;
}

/** The user-perceived characters of `text`, by their start index. */
export function segmentGraphemes(text: string): Iterable<{ index: number; segment: string }> {
  segmenter ??= new Intl.Segmenter();
  return segmenter.segment(text);
}

/** True for text whose every character takes one column and stands alone. */
export function isNarrowText(text: string): boolean {
  return NARROW.test(text);
}

/** Columns that neutralised text takes in a terminal. */
export function textWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  return exactWidth === undefined ? estimateWidth(text) : exactWidth(text);
}

/** The user-perceived characters of a text with their widths, so a cut never splits one. */
export function graphemes(text: string): { readonly text: string; readonly width: number }[] {
  if (NARROW.test(text)) {
    return Array.from(text, (character) => ({ text: character, width: 1 }));
  }
  return Array.from(segmentGraphemes(text), ({ segment }) => ({
    text: segment,
    width: textWidth(segment),
  }));
}

/** The start of `text` in at most `width - 1` columns, then `…`: it says more was left out. */
export function ellipsize(text: string, width: number): string {
  if (width <= 0) return '';
  let result = '';
  let used = 0;
  for (const grapheme of graphemes(text)) {
    if (used + grapheme.width > width - 1) break;
    result += grapheme.text;
    used += grapheme.width;
  }
  return result + ELLIPSIS;
}

/** Cuts text to at most `width` columns, ending with `…` when something was left out. */
export function truncateText(text: string, width: number): string {
  if (width <= 0) return '';
  return textWidth(text) <= width ? text : ellipsize(text, width);
}

/** Text padded with spaces to exactly `width` columns (or cut to it). */
export function padText(text: string, width: number): string {
  const fitted = truncateText(text, width);
  return fitted + ' '.repeat(Math.max(0, width - textWidth(fitted)));
}

function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const grapheme of graphemes(word)) {
    if (used + grapheme.width > width && piece !== '') {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += grapheme.text;
    used += grapheme.width;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

function wrapParagraph(paragraph: string, width: number, lines: string[]): void {
  const indent = /^ */.exec(paragraph)?.[0] ?? '';
  // Indentation is kept on the first line only when it leaves room for text.
  let line = indent.length < width / 2 ? indent : '';
  let used = line.length;
  let hasWord = false;
  for (const word of paragraph.slice(indent.length).split(/ +/)) {
    if (word === '') continue;
    const wordWidth = textWidth(word);
    const gap = hasWord ? 1 : 0;
    if (used + gap + wordWidth <= width) {
      line += gap === 1 ? ` ${word}` : word;
      used += gap + wordWidth;
      hasWord = true;
      continue;
    }
    if (hasWord) lines.push(line);
    hasWord = true;
    if (wordWidth <= width) {
      line = word;
      used = wordWidth;
      continue;
    }
    const pieces = breakWord(word, width);
    line = pieces.pop() as string;
    used = textWidth(line);
    lines.push(...pieces);
  }
  lines.push(line);
}

/**
 * Wraps neutralised text to lines of at most `width` columns: at spaces where possible,
 * inside a word only when the word alone is too wide. Line breaks in the text are kept.
 */
export function wrapText(text: string, width: number): string[] {
  const columns = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) wrapParagraph(paragraph, columns, lines);
  return lines;
}
