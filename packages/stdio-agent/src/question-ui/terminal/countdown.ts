import { timeLimitSentence } from 'dsh-user-interaction/provider';

/** How long is left, as a countdown shows it: `4:05` from a minute up, else `42 s`. */
export function timeLeftText(milliseconds: number): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
  const hours = Math.floor(minutes / 60);
  return `${hours}:${String(minutes % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The countdown line of a question with a deadline, at `now`: the contract's time-limit
 * sentence, `1:06 left to answer: then it is withdrawn, unanswered`.
 */
export function countdownLine(deadline: number, now: number): string {
  return timeLimitSentence(timeLeftText(deadline - now));
}

/**
 * Milliseconds until the countdown changes next (the next whole second of time left), at
 * least 1; `undefined` once the time is up.
 */
export function nextTick(deadline: number, now: number): number | undefined {
  const left = deadline - now;
  if (left <= 0) return undefined;
  const into = left % 1000;
  return into === 0 ? 1000 : into;
}
