// Whitespace, control characters (Cc) and invisible format characters (Cf: zero-width spaces,
// joiners, bidirectional marks) show nothing a person could read or a model could use.
const INVISIBLE = /^[\s\p{Cc}\p{Cf}]*$/u;

/**
 * True when `text` shows nothing readable: it is empty, or only whitespace, control characters
 * or invisible format characters (such as U+200B). `String.prototype.trim` keeps those.
 */
export function isBlankText(text: string): boolean {
  // Most text starts with a visible ASCII character: decide without running the pattern.
  const first = text.charCodeAt(0);
  if (first > 32 && first < 127) return false;
  return INVISIBLE.test(text);
}
