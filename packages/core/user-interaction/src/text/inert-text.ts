// The one rule for showing text that came from outside (a model, a client, a file on disk):
// which characters are hidden or active, and how each kind of place shows them instead.
//
// Hidden or active: control characters (Cc: C0 and C1, ESC and CSI among them, DEL), format
// characters (Cf: bidirectional overrides, isolates and marks, zero-width space, BOM, tag
// characters), the line and paragraph separators (Zl, Zp), lone surrogates (Cs), the other
// default-ignorable code points (Hangul fillers, the combining grapheme joiner, those not yet
// assigned) and the braille blank U+2800, which fonts draw empty. `isBlankText` counts the same
// characters as invisible.
export const HIDDEN_CHARACTERS = String.raw`\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800`;

/**
 * Where outside text is shown, from the strictest: `file-excerpt` (a path or a field of a file
 * in a message), `log-line` (the same, cut to one short line), `terminal-line` and
 * `terminal-paragraphs` (written to a person's terminal, keeping what scripts and emoji need).
 */
export type InertTextLevel = 'file-excerpt' | 'log-line' | 'terminal-line' | 'terminal-paragraphs';

/** Options of `inertText`. */
export interface InertTextOptions {
  /**
   * Cut the text after this many UTF-16 code units, then say how long it was:
   * `… (10000 characters)`. Default: 200 for `log-line`, no cut otherwise.
   */
  readonly longest?: number;
}

/** The longest text a log line shows, by default. */
const LONGEST_LOG_TEXT = 200;

// A pattern of Unicode properties costs a fraction of a millisecond to build: each is made at
// its first use, never at import.
// The escaping levels: every hidden character, and the backslash, so every escape is unambiguous.
let escapable: RegExp | undefined;
// The terminal levels keep ZWJ, ZWNJ and the variation selectors: emoji and several scripts need
// them, and they can neither hide nor move text.
const TERMINAL_UNSAFE_SOURCE = String.raw`(?![\u200c\u200d\ufe00-\ufe0f\u{e0100}-\u{e01ef}])[${HIDDEN_CHARACTERS}]`;
let terminalUnsafe: RegExp | undefined;
/** Printable ASCII only: nothing to show otherwise on a terminal. */
const PLAIN = /^[\u0020-\u007e]*$/;

const NAMED: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** A character as a backslash escape: `\n`, `\\`, `\u001b`, `\u{e0041}`. */
function backslashEscape(character: string): string {
  const named = NAMED[character];
  if (named !== undefined) return named;
  const code = character.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A character a terminal must not get, as it shows instead: `^[`, `^?`, `<U+202E>`. */
function terminalNotation(codePoint: number): string {
  if (codePoint < 0x20) return `^${String.fromCharCode(codePoint + 0x40)}`;
  if (codePoint === 0x7f) return '^?';
  // A lone surrogate cannot be printed at all; show what a decoder would.
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return '\ufffd';
  return `<U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}>`;
}

function isTerminalUnsafe(text: string): boolean {
  terminalUnsafe ??= new RegExp(TERMINAL_UNSAFE_SOURCE, 'u');
  return terminalUnsafe.test(text);
}

const TAB_STOP = 4;
const LINE_BREAK_MARK = '↵';

function forTerminal(text: string, paragraphs: boolean): string {
  if (PLAIN.test(text) || !isTerminalUnsafe(text)) return text;
  let result = '';
  let column = 0;
  let previous = '';
  for (const character of text) {
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
      result += paragraphs ? '\n' : LINE_BREAK_MARK;
      column = paragraphs ? 0 : column + 1;
      continue;
    }
    if (character === '\t') {
      const spaces = paragraphs ? TAB_STOP - (column % TAB_STOP) : 1;
      result += ' '.repeat(spaces);
      column += spaces;
      continue;
    }
    const shown = isTerminalUnsafe(character)
      ? terminalNotation(character.codePointAt(0) as number)
      : character;
    result += shown;
    column += shown.length;
  }
  return result;
}

function escaped(text: string): string {
  escapable ??= new RegExp(`[${HIDDEN_CHARACTERS}\\\\]`, 'gu');
  return text.replace(escapable, backslashEscape);
}

/**
 * Text from outside made inert for where it is shown (see `InertTextLevel`), so it can neither
 * act on the terminal that shows it (move the cursor, recolour, retitle), nor break or forge a
 * line, nor hide or reorder text:
 * - `file-excerpt` and `log-line`: every hidden character and the backslash as an escape
 *   (`\u001b`, `\n`, `\u202e`, `\\`); `log-line` cuts after 200 characters by default.
 * - `terminal-line`: controls in caret notation (`^[`, `^?`), other hidden characters as
 *   `<U+202E>`, a lone surrogate as U+FFFD, a line break as `↵` and a tab as a space; ZWJ, ZWNJ
 *   and variation selectors stay.
 * - `terminal-paragraphs`: as `terminal-line`, but line breaks stay (`\n`) and tabs become spaces
 *   to the next stop of four.
 * Printable text of every script, emoji included, is kept as it is.
 */
export function inertText(
  text: string,
  level: InertTextLevel = 'file-excerpt',
  options: InertTextOptions = {},
): string {
  const longest = options.longest ?? (level === 'log-line' ? LONGEST_LOG_TEXT : undefined);
  const cut = longest !== undefined && text.length > longest;
  const shown = cut ? text.slice(0, longest) : text;
  const inert =
    level === 'terminal-line' || level === 'terminal-paragraphs'
      ? forTerminal(shown, level === 'terminal-paragraphs')
      : escaped(shown);
  return cut ? `${inert}… (${text.length} characters)` : inert;
}
