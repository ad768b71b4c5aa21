import { HIDDEN_CHARACTERS } from '../text/inert-text.js';

// What shows nothing a person could read or a model could use: whitespace and the hidden
// characters of `inertText` (controls, format characters such as zero-width spaces, joiners and
// bidirectional marks, the other default-ignorable code points, the braille blank, which fonts
// draw empty, and lone surrogates, which no font can draw at all).
// Made at its first use: a pattern of Unicode properties is checked against the property tables
// when it is built, which every import would pay for.
const INVISIBLE_SOURCE = `^[\\s${HIDDEN_CHARACTERS}]*$`;
let invisible: RegExp | undefined;

/**
 * True when `text` shows nothing readable: it is empty, or only whitespace, control, format or
 * other invisible characters (such as U+200B, U+3164 or U+2800). `String.prototype.trim` keeps those.
 */
export function isBlankText(text: string): boolean {
  // Most text starts with a visible ASCII character: decide without running the pattern.
  const first = text.charCodeAt(0);
  if (first > 32 && first < 127) return false;
  invisible ??= new RegExp(INVISIBLE_SOURCE, 'u');
  return invisible.test(text);
}

/** `String.prototype.isWellFormed`, which Node has from version 20 and the ES2023 typings lack. */
interface WellFormedString {
  isWellFormed(): boolean;
}

/** True when `text` has a lone surrogate: half of a character, which no font can draw. */
export function hasLoneSurrogate(text: string): boolean {
  return !(text as unknown as WellFormedString).isWellFormed();
}
