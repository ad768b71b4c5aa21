// What could drive a terminal or hide text: control characters (ESC, line breaks, C1 such as
// CSI), format characters (bidirectional overrides, zero-width characters), line and paragraph
// separators, lone surrogates; and the backslash, so that every escape below is unambiguous.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\\]/gu;

const NAMED: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function escaped(character: string): string {
  const named = NAMED[character];
  if (named !== undefined) return named;
  const code = character.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text found on disk (a path, a field of a file) as it may appear in a message for a person:
 * every control, format and separator character shown as a visible escape (`\u001b`, `\n`,
 * `\u202e`), so it can neither break the line nor act on the terminal that shows it.
 */
export function inertText(text: string): string {
  return text.replace(UNSAFE, escaped);
}
