import { textWidth, truncateText } from './text-width.js';

// Only the styles this package writes: model text is neutralised, so it holds no ESC.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point.
const STYLE = /\u001b\[[0-9;]*m/g;
const RESET = '\u001b[0m';

/** The columns a line that may carry colour takes on screen. */
export function styledWidth(line: string): number {
  return textWidth(line.replace(STYLE, ''));
}

/**
 * Cuts a line that may carry colour to at most `width` columns, ending with `…` when
 * something was left out; the colours up to the cut are kept, and reset after it.
 */
export function fitStyledLine(line: string, width: number): string {
  const plain = line.replace(STYLE, '');
  if (textWidth(plain) <= width) return line;
  if (plain === line) return truncateText(line, width);
  const kept = truncateText(plain, width);
  // The cut text ends with `…`: walk the styled line until that much plain text is covered.
  const wanted = kept.slice(0, -1);
  let result = '';
  let covered = 0;
  let index = 0;
  STYLE.lastIndex = 0;
  while (covered < wanted.length && index < line.length) {
    STYLE.lastIndex = index;
    const match = STYLE.exec(line);
    if (match !== null && match.index === index) {
      result += match[0];
      index += match[0].length;
      continue;
    }
    const next = match === null ? line.length : match.index;
    const take = Math.min(next - index, wanted.length - covered);
    result += line.slice(index, index + take);
    index += take;
    covered += take;
  }
  return `${result}…${RESET}`;
}
