import { REQUEST_LIMITS } from 'dsh-user-interaction';
import { MAX_RETRIES } from '../models/retry-policy.js';
import { UsageError } from './usage-error.js';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^(-?)(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** Below this, a number without a unit is more likely meant in seconds than in milliseconds. */
const SMALLEST_BARE_MILLISECONDS = 1_000;

/**
 * Milliseconds from `90000`, `90s`, `1.5m`, `250ms`…; throws `UsageError` saying what is wrong
 * for anything else: a duration that is not above zero (`0`, `0s`, `-1s`), under a millisecond,
 * longer than a timer can wait (24 days), a bare number under 1000 (`90` would withdraw every
 * question after 90 ms: write `90s`, or `90ms` if that is meant), or no duration at all.
 */
export function parseDuration(text: string, flag = '--timeout'): number {
  const written = text.trim();
  const match = DURATION.exec(written);
  if (match === null) {
    throw new UsageError(
      `${flag} takes a duration from 1ms to 24 days, such as 90000, 90s or 5m (got ${JSON.stringify(text)})`,
    );
  }
  const [, sign, number, unit] = match as unknown as [string, string, string, string | undefined];
  const amount = Number(number);
  if (sign === '-' && amount !== 0) {
    throw new UsageError(
      `${flag} ${written} is negative: a duration must be above zero, such as 90s or 5m`,
    );
  }
  if (amount === 0) {
    throw new UsageError(
      `${flag} ${written} is zero: a duration must be above zero, such as 90s or 5m`,
    );
  }
  if (unit === undefined && amount < SMALLEST_BARE_MILLISECONDS) {
    throw new UsageError(
      `${flag} ${written} would be ${written} milliseconds: write ${written}s for seconds, or ${written}ms if you mean it`,
    );
  }
  const ms = Math.round(amount * (UNITS[unit ?? 'ms'] ?? 1));
  if (ms < 1) {
    throw new UsageError(`${flag} ${written} is under a millisecond: the shortest duration is 1ms`);
  }
  if (ms > REQUEST_LIMITS.timeoutMs) {
    throw new UsageError(`${flag} ${written} is longer than 24 days, the longest a timer can wait`);
  }
  return ms;
}

/** A whole number of retries from 0 to 10, from `--retries`; throws `UsageError` otherwise. */
export function parseRetries(text: string): number {
  const written = text.trim();
  if (!/^\d+$/.test(written) || Number(written) > MAX_RETRIES) {
    throw new UsageError(
      `--retries takes a whole number from 0 to ${MAX_RETRIES} (got ${JSON.stringify(text)})`,
    );
  }
  return Number(written);
}
