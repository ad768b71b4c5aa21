// What a lost connection looks like under Node's `fetch` (undici), which the SDK's Streamable
// HTTP transport uses: a `TypeError: fetch failed` whose `cause` carries a socket error code.
// The SDK passes it on as is (no `SdkError`), and the transport stays set, so it must be read here.
const LOST_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The socket error code behind `error`, when it says the server went away or cannot be reached. */
export function lostConnectionCode(error: unknown): string | undefined {
  let current: unknown = error;
  // A few links at most: a hostile or cyclic chain must not loop.
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && LOST_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
