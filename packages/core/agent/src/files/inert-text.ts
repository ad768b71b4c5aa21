import { inertText as inertTextOf } from 'dsh-user-interaction';

/**
 * Text found on disk (a path, a field of a file) as it may appear in a message for a person:
 * `inertText(text, 'file-excerpt')` of `dsh-user-interaction`, every control, format, separator
 * and other invisible character shown as a visible escape (`\u001b`, `\n`, `\u202e`), so it can
 * neither break the line nor act on the terminal that shows it.
 */
export function inertText(text: string): string {
  return inertTextOf(text, 'file-excerpt');
}
