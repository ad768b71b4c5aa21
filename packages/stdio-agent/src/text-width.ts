import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter();
const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;
const ELLIPSIS = '…';

/** Columns that neutralised text takes in a terminal. */
export function textWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/** The user-perceived characters of a text with their widths, so a cut never splits one. */
export function graphemes(text: string): { readonly text: string; readonly width: number }[] {
  if (PRINTABLE_ASCII.test(text)) {
    return Array.from(text, (character) => ({ text: character, width: 1 }));
  }
  return Array.from(segmenter.segment(text), ({ segment }) => ({
    text: segment,
    width: stringWidth(segment),
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
