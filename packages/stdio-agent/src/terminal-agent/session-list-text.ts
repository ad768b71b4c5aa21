import type { SessionInfo } from 'dsh-agent';
import { neutralizeText } from '../text/neutralize-text.js';

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** A time as `2026-07-30 14:02`, in local time. */
export function localTime(date: Date): string {
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())} ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/**
 * What `--sessions` prints: one line per saved conversation of `cwd`, newest first, with its
 * id, when it was last active (local time) and its title; then how to go back to one.
 */
export function sessionListText(sessions: readonly SessionInfo[], cwd: string): string {
  if (sessions.length === 0) return `No saved conversations in ${neutralizeText(cwd)}.\n`;
  const lines = sessions.map(
    (info) => `${info.id}  ${localTime(info.updatedAt)}  ${neutralizeText(info.title)}`,
  );
  return `${lines.join('\n')}\n\nResume one with --resume ID, or the newest with --continue.\n`;
}
