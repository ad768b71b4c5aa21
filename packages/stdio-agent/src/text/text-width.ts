// Characters that each take exactly one column, alone or next to each other: printable
// Latin, Greek, Cyrillic, the letters of Hebrew and Arabic (without their points and marks),
// common punctuation, and the symbols of the UI. Text made only
// of them is measured by its length, without segmenting it (the slow path).
const NARROW_RANGES =
  '\\u0020-\\u007e\\u00a0-\\u00a8\\u00aa-\\u00ac\\u00af-\\u02ff\\u0370-\\u0377\\u037a-\\u037f\\u0384-\\u038a\\u038c\\u038e-\\u03a1\\u03a3-\\u0482\\u048a-\\u052f\\u05d0-\\u05ea\\u05ef-\\u05f4\\u060c\\u061b\\u061f\\u0620-\\u064a\\u0660-\\u066f\\u0671-\\u06d5\\u06ee-\\u06ff\\u1e00-\\u1eff\\u2010-\\u2027\\u2030-\\u203b\\u2190-\\u2193\\u21b5\\u2298\\u270e\\u2714\\u2716\\u276f';
// Characters that each take exactly two columns and stand alone too: CJK ideographs and
// punctuation, kana, Hangul syllables and fullwidth forms (without the combining marks and
// emoji among them). Mixed with the narrow ones, each is still a grapheme of its own.
const WIDE_RANGES =
  '\\u3000-\\u3029\\u3031-\\u303c\\u303e\\u3041-\\u3096\\u309b-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7a3\\uff01-\\uff60';
const NARROW = new RegExp(`^[${NARROW_RANGES}]*$`);
const ALONE = new RegExp(`^[${NARROW_RANGES}${WIDE_RANGES}]*$`);
/** In text that stands alone, the narrow characters all come before this one, the wide after. */
const FIRST_WIDE = 0x3000;
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

function estimateWidth(text: string): number {
  let width = 0;
  for (const character of text) {
    if (ZERO_WIDTH.test(character)) continue;
    width += WIDE.test(character) ? 2 : 1;
  }
  return width;
}

/**
 * Code units given to the segmenter at a time. V8's `Intl.Segmenter` spends time in
 * proportion to the whole string on every grapheme it yields, so a long text segmented at
 * once costs the square of its length (seconds for a long paste); window by window, it is
 * linear.
 */
const SEGMENT_WINDOW = 256;

/** The user-perceived characters of `text`, by their start index. */
export function* segmentGraphemes(text: string): Generator<{ index: number; segment: string }> {
  segmenter ??= new Intl.Segmenter();
  let start = 0;
  let window = SEGMENT_WINDOW;
  while (start < text.length) {
    const end = Math.min(text.length, start + window);
    let offset = start;
    for (const { segment } of segmenter.segment(text.slice(start, end))) {
      // The window may cut the last grapheme short: the next window starts with it whole.
      if (offset + segment.length === end && end < text.length) break;
      yield { index: offset, segment };
      offset += segment.length;
    }
    // A window filled by one grapheme (thousands of combining marks) grows until it holds it.
    window = offset === start ? window * 2 : SEGMENT_WINDOW;
    start = offset;
  }
}

/** True for text whose every character takes one column and stands alone. */
export function isNarrowText(text: string): boolean {
  return NARROW.test(text);
}

/** True for text whose every code unit is a grapheme of its own, one or two columns wide. */
export function standsAlone(text: string): boolean {
  return ALONE.test(text);
}

function aloneWidth(character: string): number {
  return character.charCodeAt(0) >= FIRST_WIDE ? 2 : 1;
}

/**
 * A bound that the text's width never exceeds, found without segmenting it: no grapheme is
 * wider than two columns, and only a code point from U+1100 up can be two columns on its own
 * (a surrogate pair already counts two code units).
 */
export function textWidthBound(text: string): number {
  let bound = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x1100 && (code < 0xd800 || code > 0xdfff)) bound++;
  }
  return bound;
}

/** Columns that neutralised text takes in a terminal. */
export function textWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  if (ALONE.test(text)) {
    let width = 0;
    for (let index = 0; index < text.length; index++) width += aloneWidth(text[index] as string);
    return width;
  }
  if (exactWidth === undefined) return estimateWidth(text);
  if (text.length <= SEGMENT_WINDOW) return exactWidth(text);
  // `string-width` segments its whole input at once: give it one grapheme at a time.
  let width = 0;
  for (const { segment } of segmentGraphemes(text)) width += exactWidth(segment);
  return width;
}

/** The user-perceived characters of a text with their widths, read as far as the caller goes. */
function* eachGrapheme(text: string): Generator<{ readonly text: string; readonly width: number }> {
  if (ALONE.test(text)) {
    for (const character of text) yield { text: character, width: aloneWidth(character) };
    return;
  }
  for (const { segment } of segmentGraphemes(text)) {
    yield { text: segment, width: textWidth(segment) };
  }
}

/** Columns of `text`, measured no further than `limit`: text at least that wide gives `limit`. */
export function textWidthUpTo(text: string, limit: number): number {
  if (NARROW.test(text)) return Math.min(text.length, limit);
  let used = 0;
  for (const grapheme of eachGrapheme(text)) {
    used += grapheme.width;
    if (used >= limit) return limit;
  }
  return used;
}

/** The start of `text` in at most `width - 1` columns, then `…`: it says more was left out. */
export function ellipsize(text: string, width: number): string {
  if (width <= 0) return '';
  let result = '';
  let used = 0;
  for (const grapheme of eachGrapheme(text)) {
    if (used + grapheme.width > width - 1) break;
    result += grapheme.text;
    used += grapheme.width;
  }
  return result + ELLIPSIS;
}

/**
 * Cuts text to at most `width` columns, ending with `…` when something was left out. Only
 * the start of a long text is measured: an answer of 100,000 characters costs what fits.
 */
export function truncateText(text: string, width: number): string {
  if (width <= 0) return '';
  let used = 0;
  for (const grapheme of eachGrapheme(text)) {
    used += grapheme.width;
    if (used > width) return ellipsize(text, width);
  }
  return text;
}

function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const grapheme of eachGrapheme(word)) {
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

/**
 * Cuts text into rows of at most `width` columns, every character kept in place, spaces too:
 * for text that must be seen whole and as written, such as a command about to run.
 */
export function cutIntoRows(text: string, width: number): string[] {
  const rows = breakWord(text, Math.max(1, width));
  return rows.length === 0 ? [''] : rows;
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
