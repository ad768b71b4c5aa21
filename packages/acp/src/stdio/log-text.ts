// What a client could use to forge or hide a log line, or to drive the terminal that shows the
// log: control characters (escape sequences, line breaks), format characters (bidirectional
// overrides, zero-width characters), line and paragraph separators, other default-ignorable
// characters and lone surrogates; and the backslash, so that every escape below is unambiguous.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\\]/gu;

const NAMED: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function inert(character: string): string {
  const named = NAMED[character];
  if (named !== undefined) return named;
  const code = character.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The longest client text a log line shows, by default. */
const LONGEST = 200;

/**
 * Client-provided text as it may appear in a log line: every control, format and invisible
 * character shown as an inert escape (`\u001b`, `\n`, `\u202e`), so the text can neither break
 * the line, forge another, nor reach the terminal that shows the log as a command; and cut
 * after `longest` characters (200 by default), saying how long it was.
 */
export function logText(text: string, longest = LONGEST): string {
  const shown = text.length > longest ? text.slice(0, longest) : text;
  const escaped = shown.replace(UNSAFE, inert);
  return text.length > longest ? `${escaped}… (${text.length} characters)` : escaped;
}
