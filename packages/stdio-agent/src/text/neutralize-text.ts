import { inertText } from 'dsh-user-interaction/provider';

/** Options of `neutralizeText`. */
export interface NeutralizeTextOptions {
  /**
   * Keep line breaks as `\n` (for a question or a description, whose paragraphs the layout
   * wraps on its own). Otherwise a line break is shown as `↵` and a tab as a space.
   */
  readonly multiline?: boolean;
}

/**
 * Makes model-written text inert before it is written to a terminal: control characters,
 * escape sequences, DEL and bidirectional or invisible format characters are replaced by a
 * visible notation (`^[`, `^?`, `<U+202E>`), so text cannot move the cursor, recolour,
 * retitle, reorder or hide anything. Printable text, emoji and every script are kept. It is
 * `inertText(text, 'terminal-line')` of `dsh-user-interaction` (`'terminal-paragraphs'` with
 * `multiline`).
 */
export function neutralizeText(text: string, options: NeutralizeTextOptions = {}): string {
  return inertText(text, options.multiline === true ? 'terminal-paragraphs' : 'terminal-line');
}
