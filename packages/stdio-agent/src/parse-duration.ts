import { REQUEST_LIMITS } from 'dsh-user-interaction';
import { UsageError } from './usage-error.js';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** Milliseconds from `90000`, `90s`, `1.5m`…; throws `UsageError` for anything else. */
export function parseDuration(text: string, flag = '--timeout'): number {
  const match = DURATION.exec(text.trim());
  const ms = match ? Math.round(Number(match[1]) * (UNITS[match[2] ?? 'ms'] ?? 1)) : Number.NaN;
  if (!(ms >= 1 && ms <= REQUEST_LIMITS.timeoutMs)) {
    throw new UsageError(
      `${flag} takes a duration from 1ms to 24 days, such as 90000, 90s or 5m (got ${JSON.stringify(text)})`,
    );
  }
  return ms;
}

/** A duration as people read it: `500 ms`, `90 s`, `5 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 120_000 || ms % 60_000 !== 0) return `${Math.round(ms / 1_000)} s`;
  return `${ms / 60_000} min`;
}
