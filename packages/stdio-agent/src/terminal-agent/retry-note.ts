import { formatDuration, type RetryEvent } from 'dsh-agent';
import { neutralizeText } from '../text/neutralize-text.js';
import type { TerminalStyle } from '../text/terminal-style.js';
import { wrapStyledLine } from '../text/wrap-styled-line.js';

/**
 * The lines that announce a retry of the model request: what failed, then when the next
 * attempt comes, "Retrying in 2 s, attempt 2 of 3." Wrapped at words to `width` when there
 * is one (a pipe gets one line).
 */
export function retryNote(
  event: RetryEvent,
  style: TerminalStyle,
  width: number | undefined,
): string[] {
  const when =
    event.delayMs === 0 ? 'Retrying now' : `Retrying in ${formatDuration(event.delayMs)}`;
  const runs = [
    { text: style.symbols.retry, style: style.warning },
    { text: ` ${neutralizeText(event.error.message)} ` },
    { text: `${when}, attempt ${event.attempt} of ${event.attempts}.`, style: style.dim },
  ];
  return wrapStyledLine(runs, width ?? Number.POSITIVE_INFINITY, '  ');
}
