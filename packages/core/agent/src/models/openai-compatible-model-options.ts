import { MAX_RETRIES } from './retry-policy.js';
import type { ThinkingLevel } from './thinking.js';

/** Options of `createOpenAICompatibleModel`. */
export interface OpenAICompatibleModelOptions {
  /** The server's base URL (default: DeepSeek). Ollama: `http://localhost:11434/v1`. */
  readonly baseURL?: string | undefined;
  /** The model name (default `deepseek-flash`). Never checked here: the server decides. */
  readonly model?: string | undefined;
  /**
   * The API key. Default: `DEEPSEEK_API_KEY` when the server is DeepSeek; for any other
   * server, no key (a placeholder is sent, which local servers ignore).
   */
  readonly apiKey?: string | undefined;
  /**
   * How much the model reasons: DeepSeek (its server, or a model named `deepseek-…`) gets
   * `thinking` and `reasoning_effort`; other servers get `reasoning_effort` (`none` for off).
   * Default: nothing is sent, and the server's default applies.
   */
  readonly thinking?: ThinkingLevel | undefined;
  /**
   * Retries of a request that failed before anything of the answer streamed (default 2, at
   * most 10): a busy or limiting server (HTTP 408, 429, 5xx but 501), one that cannot be
   * reached (a host name that does not resolve included, but for a failed TLS handshake), or
   * one silent for `timeoutMs`.
   * Refusals (400, 401, 403, 404, 422…) are never retried. Each retry streams a `retry` event.
   */
  readonly maxRetries?: number | undefined;
  /**
   * How long the server may stay silent, in milliseconds (default 20000): the wait for its
   * first byte, and each gap between two pieces of its answer. An answer that keeps streaming
   * is never cut. With the default retries, an unresponsive server fails after 60 s in all.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * The pause before the first retry, in milliseconds (default 1000); it doubles with each
   * retry, up to 8 s. A server's `Retry-After` (up to 60 s) wins; after silence there is none.
   */
  readonly retryDelayMs?: number | undefined;
  /**
   * After the model finished its answer (a `finish_reason`), how long the server has to end
   * its stream, in milliseconds (default 2000). A server that then sends only keep-alives is
   * cut off at this bound, and the answer completes.
   */
  readonly finishWaitMs?: number | undefined;
  /**
   * Where the API key came from, for messages (such as `DEEPSEEK_API_KEY`). Default: that
   * variable when the key is read from it here, else nothing is said.
   */
  readonly apiKeySource?: string | undefined;
  /** Extra HTTP headers for every request. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch | undefined;
}

/** The longest time limit a timer can wait (about 24 days). */
const LONGEST_TIMEOUT_MS = 2_147_483_647;

/** Throws a `TypeError` naming the first option out of its range. */
export function checkOptions(options: OpenAICompatibleModelOptions): void {
  const { maxRetries, timeoutMs, retryDelayMs, finishWaitMs } = options;
  if (
    maxRetries !== undefined &&
    !(Number.isInteger(maxRetries) && maxRetries >= 0 && maxRetries <= MAX_RETRIES)
  ) {
    throw new TypeError(
      `createOpenAICompatibleModel(): maxRetries must be a whole number from 0 to ${MAX_RETRIES}.`,
    );
  }
  for (const [name, value] of [
    ['timeoutMs', timeoutMs],
    ['retryDelayMs', retryDelayMs],
    ['finishWaitMs', finishWaitMs],
  ] as const) {
    if (
      value !== undefined &&
      !(Number.isInteger(value) && value >= 1 && value <= LONGEST_TIMEOUT_MS)
    ) {
      throw new TypeError(
        `createOpenAICompatibleModel(): ${name} must be a whole number of milliseconds from 1 to ${LONGEST_TIMEOUT_MS}.`,
      );
    }
  }
}

/** What is wrong with a base URL, or `undefined`: it must be http(s). */
export function baseUrlProblem(baseURL: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    // Not a URL at all: said below.
  }
  if (url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:'))
    return undefined;
  return `The base URL ${JSON.stringify(baseURL)} is not an http(s) URL such as http://localhost:11434/v1.`;
}
