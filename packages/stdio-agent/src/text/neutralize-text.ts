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
// DEL, Unicode line separators, lone surrogates, the invisible format characters
// (bidirectional overrides, isolates and marks, zero-width space, BOM, tag characters), the
// other default-ignorable code points (Hangul fillers, the combining grapheme joiner, those not
// yet assigned) and the braille blank, which the contract counts as invisible too (`isBlankText`).
// ZWJ, ZWNJ and the variation selectors stay: emoji and several scripts need them, and they
// cannot hide or move text.
// Made at its first use, and only for text that is not plain printable ASCII: a pattern of
// Unicode properties costs a fraction of a millisecond to build.
const UNSAFE_SOURCE = String.raw`[\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff\u2800]|(?![\u200c\u200d\ufe00-\ufe0f\u{e0100}-\u{e01ef}])[\p{Cf}\p{Default_Ignorable_Code_Point}]`;
let unsafe: RegExp | undefined;
/** Printable ASCII only: nothing to neutralize. */
const PLAIN = /^[\u0020-\u007e]*$/;

function isUnsafe(text: string): boolean {
  unsafe ??= new RegExp(UNSAFE_SOURCE, 'u');
  return unsafe.test(text);
}

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
  if (PLAIN.test(text) || !isUnsafe(text)) return text;
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
    const shown = isUnsafe(character) ? inert(codePoint) : character;
    result += shown;
    column += shown.length;
  }
  return result;
}
