/** What went wrong on the way to a server, in the terms a person can check. */
export type NetworkFailureKind =
  | 'dns'
  | 'refused'
  | 'reset'
  | 'closed'
  | 'timeout'
  | 'unreachable'
  | 'tls-not-spoken'
  | 'tls-certificate'
  | 'tls'
  | 'other';

/** A network failure: its kind and the low-level code or message it came with. */
export interface NetworkFailure {
  readonly kind: NetworkFailureKind;
  /** Such as `ECONNREFUSED`, or the error's message when it has no code. */
  readonly detail: string;
}

const KINDS: Readonly<Record<string, NetworkFailureKind>> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  EAI_FAIL: 'dns',
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'closed',
  ECONNABORTED: 'closed',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENETDOWN: 'unreachable',
  EPROTO: 'tls',
  ERR_SSL_WRONG_VERSION_NUMBER: 'tls-not-spoken',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'tls-not-spoken',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls-certificate',
};

function kindOf(code: string): NetworkFailureKind | undefined {
  const known = KINDS[code];
  if (known !== undefined) return known;
  // OpenSSL's certificate codes (CERT_HAS_EXPIRED, SELF_SIGNED_CERT_IN_CHAIN,
  // UNABLE_TO_VERIFY_LEAF_SIGNATURE…) and its other handshake errors (ERR_SSL_…).
  if (/CERT|UNABLE_TO_(GET|VERIFY)|SIGNATURE/.test(code)) return 'tls-certificate';
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return 'tls';
  return undefined;
}

/**
 * What failed, from an error of `fetch` (undici nests the socket's error: APIConnectionError
 * -> TypeError('fetch failed') -> Error{code}; a connection tried on several addresses fails
 * with an AggregateError of them).
 */
export function networkFailure(error: unknown): NetworkFailure {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  let fallback: string | undefined;
  while (queue.length > 0 && seen.size < 20) {
    const cause = queue.shift();
    if (cause === null || typeof cause !== 'object' || seen.has(cause)) continue;
    seen.add(cause);
    const { code, message, errors } = cause as {
      code?: unknown;
      message?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string') {
      const kind = kindOf(code);
      if (kind !== undefined) return { kind, detail: code };
      fallback ??= code;
    }
    if (Array.isArray(errors)) queue.push(...errors);
    queue.push((cause as { cause?: unknown }).cause);
    if (
      typeof message === 'string' &&
      message !== '' &&
      !/^(fetch failed|Connection error\.)$/.test(message)
    ) {
      fallback ??= message.split('\n')[0];
    }
  }
  return { kind: 'other', detail: fallback ?? 'no detail' };
}

/** Whether trying again after a pause may help: everything but a failed TLS handshake. */
export function networkFailurePasses(failure: NetworkFailure): boolean {
  return !failure.kind.startsWith('tls');
}

/** Where the request went, as messages say it. */
export interface NetworkTarget {
  /** The base URL as people may see it. */
  readonly server: string;
  /** Whether the person gave the base URL (else it is DeepSeek's, the default). */
  readonly baseURLGiven: boolean;
  /** Where the key came from, such as `DEEPSEEK_API_KEY`. */
  readonly apiKeySource?: string;
}

/** What failed, for the parentheses of `Cannot reach … (…)`. */
export function networkReason(failure: NetworkFailure, server: string): string {
  const url = safeURL(server);
  const host = url?.hostname ?? server;
  const port = url === undefined ? '' : url.port || (url.protocol === 'https:' ? '443' : '80');
  switch (failure.kind) {
    case 'dns':
      return `host name ${host} not found: the DNS lookup failed, ${failure.detail}`;
    case 'refused':
      return `connection refused: nothing accepts connections on ${host} port ${port}`;
    case 'reset':
      return `connection reset, ${failure.detail}`;
    case 'closed':
      return 'the connection was closed before any answer';
    case 'timeout':
      return `connecting timed out, ${failure.detail}`;
    case 'unreachable':
      return `no route to the host, ${failure.detail}`;
    case 'tls-not-spoken':
      return `TLS handshake failed: the server does not speak https on port ${port}, ${failure.detail}`;
    case 'tls-certificate':
      return `TLS handshake failed: the server's certificate is not accepted, ${failure.detail}`;
    case 'tls':
      return `TLS handshake failed, ${failure.detail}`;
    case 'other':
      return `network error: ${failure.detail}`;
  }
}

/** What to check, in the terms the person set: the base URL they gave, or DeepSeek's default. */
export function networkAdvice(failure: NetworkFailure, target: NetworkTarget): string {
  const { kind } = failure;
  if (!target.baseURLGiven) {
    const why = `It is DeepSeek's server, used by default because no base URL was given${target.apiKeySource === undefined ? '' : ` and ${target.apiKeySource} is set`}.`;
    const check =
      kind === 'tls-certificate' || kind === 'tls' || kind === 'tls-not-spoken'
        ? 'Something between this machine and DeepSeek (a proxy, a firewall) may be intercepting the connection: check it.'
        : kind === 'dns'
          ? "Check this machine's network connection and DNS settings (and proxy, if any)."
          : "Check this machine's network connection, and any proxy or firewall in the way.";
    return `${why} ${check} To use another server, give its base URL (--base-url).`;
  }
  const url = safeURL(target.server);
  const host = url?.hostname ?? target.server;
  switch (kind) {
    case 'dns':
      return `Check the host name ${host} in the base URL you gave, and this machine's network connection.`;
    case 'refused':
      return `Check that the server is running, and that the host and port of the base URL you gave are right.`;
    case 'reset':
    case 'closed':
      return 'Check that the base URL you gave points to an HTTP server (and its scheme, http or https), and any proxy in the way; it may also have restarted.';
    case 'timeout':
    case 'unreachable':
      return `Check that ${host} from the base URL you gave is up and reachable from this machine (network, VPN, firewall).`;
    case 'tls-not-spoken':
      return 'The base URL you gave starts with https://, but the server answers without TLS: give it with http:// instead.';
    case 'tls-certificate':
      return `Check the server's certificate, and that the base URL you gave names the host the certificate is for.`;
    case 'tls':
      return 'Check that the server speaks https on that port, or give the base URL with http://.';
    case 'other':
      return 'Check that the server is running, that the base URL you gave is right, and the network connection.';
  }
}

function safeURL(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
