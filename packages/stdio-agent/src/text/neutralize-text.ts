/** Options of `neutralizeText`. */
export interface NeutralizeTextOptions {
  /**
   * Keep line breaks as `\n` (for a question or a description, whose paragraphs the layout
   * wraps on its own). Otherwise a line break is shown as `↵` and a tab as a space.
   */
  readonly multiline?: boolean;
}

const TAB_STOP = 4;
const LINE_BREAK_MARK = '↵';

// Everything a terminal could act on or hide text with: C0 and C1 controls (ESC among them),
// DEL, Unicode line separators, lone surrogates, and the invisible format characters
// (bidirectional overrides, isolates and marks, zero-width space, BOM, tag characters).
// ZWJ and ZWNJ stay: emoji and several scripts need them, and they cannot hide or move text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]|(?![\u200c\u200d])\p{Cf}/u;

function hex(codePoint: number): string {
  return `<U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** How a character that must not reach the terminal is shown instead: inert and visible. */
function inert(codePoint: number): string {
  if (codePoint < 0x20) return `^${String.fromCharCode(codePoint + 0x40)}`;
  if (codePoint === 0x7f) return '^?';
  // A lone surrogate cannot be printed at all; show what a decoder would.
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return '\ufffd';
  return hex(codePoint);
}

/**
 * Makes model-written text inert before it is written to a terminal: control characters,
 * escape sequences, DEL and bidirectional or invisible format characters are replaced by a
 * visible notation (`^[`, `^?`, `<U+202E>`), so text cannot move the cursor, recolour,
 * retitle, reorder or hide anything. Printable text, emoji and every script are kept.
 */
export function neutralizeText(text: string, options: NeutralizeTextOptions = {}): string {
  if (!UNSAFE.test(text)) return text;
  const multiline = options.multiline === true;
  let result = '';
  let column = 0;
  let previous = '';
  for (const character of text) {
    const codePoint = character.codePointAt(0) as number;
    if (character === '\n' && previous === '\r') {
      previous = character;
      continue;
    }
    previous = character;
    if (
      character === '\n' ||
      character === '\r' ||
      character === '\u2028' ||
      character === '\u2029'
    ) {
      result += multiline ? '\n' : LINE_BREAK_MARK;
      column = multiline ? 0 : column + 1;
      continue;
    }
    if (character === '\t') {
      const spaces = multiline ? TAB_STOP - (column % TAB_STOP) : 1;
      result += ' '.repeat(spaces);
      column += spaces;
      continue;
    }
    const shown = UNSAFE.test(character) ? inert(codePoint) : character;
    result += shown;
    column += shown.length;
  }
  return result;
}
