/**
 * The quoted strings of a plain script (`plain-script.ts`): `'…'` and `"…"` without `$` or
 * backticks, read exactly as bash reads them, or refused with the reason.
 */

/**
 * Whether a character may stand inside quotes: no control character but tab and new line (a
 * carriage return, DEL and the C1 controls included), no line or paragraph separator, and
 * non-ASCII text only where bash reads it as the same characters (`multibyte`: the command runs
 * in a UTF-8 or a C locale; in another locale a byte of a character may be a quote or `\`).
 */
function quotable(code: number, multibyte: boolean): boolean {
  if (code < 0x20) return code === 0x09 || code === 0x0a;
  if (code < 0x7f) return true;
  if (code <= 0x9f) return false;
  if (code === 0x2028 || code === 0x2029) return false;
  return multibyte;
}

/** A quoted string read: its text as bash passes it on, and the index just past its closing quote. */
export type QuotedRead =
  | { readonly text: string; readonly end: number }
  | { readonly problem: string; readonly end?: undefined };

const NOT_PLAIN_TEXT = { problem: 'a quoted string holds a character that is not plain text' };
const NOT_CLOSED = { problem: 'a quote is not closed' };

/** Reads the `'…'` that opens at `start`: every character as it is. */
export function readSingleQuoted(text: string, start: number, multibyte: boolean): QuotedRead {
  const end = text.indexOf("'", start + 1);
  if (end === -1) return NOT_CLOSED;
  for (let at = start + 1; at < end; at++) {
    if (!quotable(text.charCodeAt(at), multibyte)) return NOT_PLAIN_TEXT;
  }
  return { text: text.slice(start + 1, end), end: end + 1 };
}

/**
 * Reads the `"…"` that opens at `start`: `\` keeps its meaning before `"`, `\`, `$` and a
 * backtick only; any `$` or backtick of its own (an expansion, a substitution) is refused.
 */
export function readDoubleQuoted(text: string, start: number, multibyte: boolean): QuotedRead {
  let value = '';
  let at = start + 1;
  let run = at;
  for (;;) {
    if (at >= text.length) return NOT_CLOSED;
    const inner = text.charCodeAt(at);
    if (inner === 0x22) break;
    if (inner === 0x24 || inner === 0x60)
      return { problem: 'a quoted string holds an expansion or a substitution' };
    if (inner === 0x5c) {
      const escaped = text[at + 1];
      if (escaped === '\n') return { problem: 'it continues a line with `\\`' };
      if (escaped === '"' || escaped === '\\' || escaped === '$' || escaped === '`') {
        value += text.slice(run, at) + escaped;
        at += 2;
        run = at;
        continue;
      }
    }
    if (!quotable(inner, multibyte)) return NOT_PLAIN_TEXT;
    at++;
  }
  return { text: value + text.slice(run, at), end: at + 1 };
}
