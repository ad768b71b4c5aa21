import type * as OpenAIModule from 'openai';
import { deepSeekModelHint, isUnknownModelRefusal } from './deepseek.js';
import { ModelError } from './model-error.js';

/** What an error message may say about the request: never the key itself. */
export interface ModelTarget {
  /** The base URL as people may see it (no user name or password). */
  readonly server: string;
  readonly model: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  /** Whether the server speaks DeepSeek's dialect (its messages can name DeepSeek's models). */
  readonly deepSeek: boolean;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
};

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

/** The base URL without credentials, for messages. */
export function displayServer(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = '';
    url.password = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return baseURL;
  }
}

function networkReason(error: unknown): string {
  // undici nests the socket error: APIConnectionError -> TypeError('fetch failed') -> Error{code}.
  for (let cause = error, depth = 0; cause !== undefined && depth < 5; depth++) {
    const code = (cause as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code in NETWORK_CODES) return NETWORK_CODES[code] as string;
    cause = (cause as { cause?: unknown } | null)?.cause;
  }
  return 'network error';
}

/** The server's own words, shortened and with the key removed (servers sometimes echo it). */
function serverDetail(error: OpenAIModule.APIError, target: ModelTarget): string {
  const body = error.error as { message?: unknown } | string | undefined;
  let text =
    typeof body === 'string'
      ? body
      : typeof body?.message === 'string'
        ? body.message
        : error.message.replace(/^\d{3}\s*/, '');
  if (target.apiKey.length >= 4) text = text.split(target.apiKey).join('***');
  text = text.replace(/\s+/g, ' ').trim();
  if (text === '' || text.startsWith('status code (no body)')) return '';
  return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

function statusError(
  error: OpenAIModule.APIError,
  status: number,
  target: ModelTarget,
): ModelError {
  const { server, model } = target;
  const http = `HTTP ${status}${serverDetail(error, target)}`;
  const options = { cause: error, status };
  if (status === 401 || status === 403) {
    return new ModelError(
      `The model server at ${server} rejected the API key (${http}). Check that the key is set and valid for this server.`,
      'MODEL_AUTH',
      options,
    );
  }
  if (status === 429) {
    return new ModelError(
      `The model server at ${server} is limiting requests (${http}). Wait a moment, then send your message again.`,
      'MODEL_RATE_LIMITED',
      options,
    );
  }
  if (status === 404 || ((status === 400 || status === 422) && isUnknownModelRefusal(http))) {
    const next = target.deepSeek
      ? deepSeekModelHint(model)
      : 'Check the model name and the base URL (OpenAI-compatible servers usually end in /v1).';
    return new ModelError(
      `The model server at ${server} has no model "${model}"${status === 404 ? ' or no chat completions endpoint' : ''} (${http}). ${next}`,
      'MODEL_NOT_FOUND',
      options,
    );
  }
  if (status >= 500) {
    return new ModelError(
      `The model server at ${server} failed (${http}). It may be down or overloaded: try again in a moment.`,
      'MODEL_UNAVAILABLE',
      options,
    );
  }
  return new ModelError(
    `The model server at ${server} rejected the request (${http}).`,
    'MODEL_REQUEST_REJECTED',
    options,
  );
}

/** A failure of the request itself (before any response data), as a `ModelError`. */
export function requestError(
  error: unknown,
  target: ModelTarget,
  openai: typeof OpenAIModule,
): ModelError {
  const { server } = target;
  if (error instanceof openai.APIConnectionTimeoutError) {
    return new ModelError(
      `The model server at ${server} did not answer within ${duration(target.timeoutMs)}. Try again, or allow more time.`,
      'MODEL_TIMEOUT',
      { cause: error },
    );
  }
  if (error instanceof openai.APIConnectionError) {
    return new ModelError(
      `Cannot reach the model server at ${server} (${networkReason(error)}). Check that it is running and that the base URL is right.`,
      'MODEL_CONNECTION',
      { cause: error },
    );
  }
  if (error instanceof openai.APIError && typeof error.status === 'number') {
    return statusError(error, error.status, target);
  }
  return streamError(error, target, openai);
}

/** A failure while reading the streamed response, as a `ModelError`. */
export function streamError(
  error: unknown,
  target: ModelTarget,
  openai: typeof OpenAIModule,
): ModelError {
  const { server } = target;
  if (error instanceof ModelError) return error;
  if (error instanceof SyntaxError) {
    return new ModelError(
      `The model server at ${server} sent data that is not valid JSON. Check that the base URL points to an OpenAI-compatible server.`,
      'MODEL_BAD_RESPONSE',
      { cause: error },
    );
  }
  if (error instanceof openai.APIError) {
    // An error event inside a successful (HTTP 200) stream.
    return new ModelError(
      `The model server at ${server} reported an error mid-response${serverDetail(error, target)}. Try again.`,
      'MODEL_UNAVAILABLE',
      { cause: error },
    );
  }
  return new ModelError(
    `The connection to the model server at ${server} was lost mid-response (${networkReason(error)}). Try again.`,
    'MODEL_CONNECTION',
    { cause: error },
  );
}
