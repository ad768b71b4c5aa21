import type { SessionInfo } from 'dsh-agent';
import { neutralizeText } from '../text/neutralize-text.js';

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** A time as `2026-07-30 14:02`, in local time; with `seconds`, `2026-07-30 14:02:05`. */
export function localTime(date: Date, seconds = false): string {
  const minute = `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())} ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
  return seconds ? `${minute}:${twoDigits(date.getSeconds())}` : minute;
}

/**
 * What `--sessions` prints: one line per saved conversation of `cwd`, newest first, with its
 * id, when it was last active (local time) and its title; then how to go back to one.
 * A title is the person's first message, and many start alike (every demo is begun with the
 * same "hello"): a title shown more than once says when its conversation started.
 */
export function sessionListText(sessions: readonly SessionInfo[], cwd: string): string {
  if (sessions.length === 0) return `No saved conversations in ${neutralizeText(cwd)}.\n`;
  const titles = sessions.map((info) => neutralizeText(info.title));
  const times = new Map<string, number>();
  for (const title of titles) times.set(title, (times.get(title) ?? 0) + 1);
  const lines = sessions.map((info, index) => {
    const title = titles[index] ?? '';
    const started = Number.isNaN(info.createdAt.getTime())
      ? ''
      : `(started ${localTime(info.createdAt, true)})`;
    const shown =
      (times.get(title) ?? 0) > 1 && started !== '' ? `${title} ${started}`.trim() : title;
    return `${info.id}  ${localTime(info.updatedAt)}  ${shown}`;
  });
  return `${lines.join('\n')}\n\nResume one with --resume ID, or the newest with --continue.\n`;
}
