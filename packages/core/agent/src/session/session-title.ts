/** The longest title, in characters (code points). */
export const TITLE_LENGTH = 80;

/**
 * A session's title from its first message: the first line with text, its runs of white space
 * (and control characters) made single spaces, cut to `TITLE_LENGTH` characters with `…`.
 */
export function sessionTitle(prompt: string): string {
  // A loop rather than `map` then `find`: it stops at the first line with text, and the array
  // `map` made came in another shape once the agent was warm, which deoptimised this function.
  let line = '';
  for (const part of prompt.split(/\r\n|[\n\r\u2028\u2029]/)) {
    line = part.replace(/[\s\p{Cc}]+/gu, ' ').trim();
    if (line !== '') break;
  }
  const characters = Array.from(line.slice(0, TITLE_LENGTH * 2 + 2));
  return characters.length > TITLE_LENGTH
    ? `${characters
        .slice(0, TITLE_LENGTH - 1)
        .join('')
        .trimEnd()}…`
    : characters.join('');
}
