/** Retries of a failed model request by default: three attempts in all. */
export const DEFAULT_MAX_RETRIES = 2;
/**
 * How long a model server may stay silent by default (before its first byte, or between two
 * pieces of its answer): with the default retries, an unresponsive server fails the turn
 * after 60 s in all.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/** How long a stream may go on after the model finished its answer, by default. */
export const DEFAULT_FINISH_WAIT_MS = 2_000;
/** The pause before the first retry by default; it doubles with each retry, up to `MAX_BACKOFF_MS`. */
export const DEFAULT_RETRY_DELAY_MS = 1_000;
/** The longest pause between two attempts that the model chooses on its own. */
const MAX_BACKOFF_MS = 8_000;
/**
 * The longest wait a server may ask for (`Retry-After`) that is waited for: a server that
 * asks for more fails the request at once, with a message that says how long it asked for.
 */
export const MAX_RETRY_AFTER_MS = 60_000;
/** The most retries the options take. */
export const MAX_RETRIES = 10;

/** Whether a failed attempt is worth another, and when. */
export type RetryKind =
  /** A refusal or a broken answer: the same request would fail the same way. */
  | 'never'
  /** The server was silent for the whole limit: it has been waited for already. */
  | 'at-once'
  /** A busy, limiting or unreachable server: after a pause, or what it asked for. */
  | 'after-pause';

/**
 * Milliseconds a server asked to wait before the next request: `Retry-After-Ms`, else
 * `Retry-After` in seconds or as an HTTP date (a date in the past is 0); `undefined` when
 * it asked nothing readable.
 */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  const milliseconds = headers?.get('retry-after-ms')?.trim();
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds)) {
    return Math.ceil(Number(milliseconds));
  }
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1_000);
  // An HTTP date names its day and month: anything else is not one, whatever Date.parse makes of it.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The pause before retry number `retry` (1 for the first), or `undefined` when the attempt
 * must not be retried: never for a refusal, at once after silence, else what the server
 * asked for (up to `MAX_RETRY_AFTER_MS`), or `firstDelayMs` doubling with each retry.
 */
export function retryPause(
  kind: RetryKind,
  askedMs: number | undefined,
  retry: number,
  firstDelayMs: number,
): number | undefined {
  switch (kind) {
    case 'never':
      return undefined;
    case 'at-once':
      return 0;
    case 'after-pause':
      if (askedMs !== undefined) return askedMs > MAX_RETRY_AFTER_MS ? undefined : askedMs;
      return Math.min(Math.max(MAX_BACKOFF_MS, firstDelayMs), firstDelayMs * 2 ** (retry - 1));
  }
}
