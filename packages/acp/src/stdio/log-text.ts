import { inertText } from 'dsh-user-interaction/provider';

/**
 * Client-provided text as it may appear in a log line: `inertText(text, 'log-line')` of
 * `dsh-user-interaction`, every control, format and invisible character shown as an inert
 * escape (`\u001b`, `\n`, `\u202e`), so the text can neither break the line, forge another, nor
 * reach the terminal that shows the log as a command; and cut after `longest` characters (200 by
 * default), saying how long it was.
 */
export function logText(text: string, longest?: number): string {
  return inertText(text, 'log-line', longest === undefined ? {} : { longest });
}
