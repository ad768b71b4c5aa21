import { toToolError } from 'dsh-user-interaction';
import type * as OpenAIModule from 'openai';
import { ABORTED, abortable, pause, raceAbort } from '../cancellation/abortable.js';
import {
  DEEPSEEK_BASE_URL,
  DEEPSEEK_MODEL,
  isDeepSeekHost,
  speaksDeepSeek,
  thinkingFields,
} from './deepseek.js';
import type { Model, ModelEvent, ModelFinishReason, ModelRequest } from './model.js';
import { ModelError } from './model-error.js';
import { type ChatChunk, readChatChunk } from './openai-chat-chunk.js';
import {
  type AttemptFailure,
  badResponseFailure,
  displayServer,
  failureError,
  type ModelTarget,
  requestFailure,
  silenceFailure,
  streamFailure,
} from './openai-model-error.js';
import { toOpenAIMessages, toOpenAITools } from './openai-request.js';
import {
  DEFAULT_FINISH_WAIT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_RETRY_DELAY_MS,
  MAX_RETRIES,
  retryPause,
} from './retry-policy.js';
import { SilenceWatch } from './silence-watch.js';
import type { ThinkingLevel } from './thinking.js';
import { ToolCallAssembler } from './tool-call-assembler.js';
import { wholeEventsFetch } from './whole-events.js';

/** The key sent to a server that needs none (most local servers ignore it, the client needs one). */
export const NO_API_KEY = 'no-key';

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

type Client = InstanceType<typeof OpenAIModule.OpenAI>;

/** The longest time limit a timer can wait (about 24 days). */
const LONGEST_TIMEOUT_MS = 2_147_483_647;

function checkOptions(options: OpenAICompatibleModelOptions): void {
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

/**
 * A model served over the OpenAI chat-completions protocol, streaming reasoning, text and tool
 * calls: DeepSeek by default, or Ollama, vLLM, llama.cpp's server and any compatible server.
 * Reasoning a server sends comes back to it, in the same field, with every message that made
 * tool calls (DeepSeek's thinking mode refuses a conversation without it). The `openai` package
 * is loaded on the first request, so programs that never call it start fast.
 */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions = {}): Model {
  const baseURL = options.baseURL ?? DEEPSEEK_BASE_URL;
  // A wrong option is a programming error (a TypeError), as everywhere in this package; a
  // program checks what a person typed first (`resolveModel`: MODEL_OPTIONS_INVALID).
  const problem = baseUrlProblem(baseURL);
  if (problem !== undefined) throw new TypeError(`createOpenAICompatibleModel(): ${problem}`);
  checkOptions(options);
  const model = options.model ?? DEEPSEEK_MODEL;
  const server = displayServer(baseURL);
  const deepSeekHost = isDeepSeekHost(baseURL);
  // The DeepSeek key goes to DeepSeek only, never to another server.
  const apiKey = options.apiKey ?? (deepSeekHost ? process.env.DEEPSEEK_API_KEY : undefined);
  if (deepSeekHost && (apiKey === undefined || apiKey === '')) {
    throw new ModelError(
      `No API key for ${server}: set the DEEPSEEK_API_KEY environment variable.`,
      'MODEL_AUTH',
    );
  }
  const deepSeek = speaksDeepSeek(baseURL, model);
  const extraFields = thinkingFields(options.thinking, deepSeek);
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const attempts = (options.maxRetries ?? DEFAULT_MAX_RETRIES) + 1;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const finishWaitMs = options.finishWaitMs ?? DEFAULT_FINISH_WAIT_MS;
  const apiKeySource =
    options.apiKeySource ??
    (options.apiKey === undefined && deepSeekHost ? 'DEEPSEEK_API_KEY' : undefined);
  const target: ModelTarget = {
    server,
    model,
    apiKey: apiKey ?? '',
    timeoutMs,
    deepSeek,
    baseURLGiven: options.baseURL !== undefined,
    ...(apiKeySource !== undefined && { apiKeySource }),
  };
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let loading: Promise<{ openai: typeof OpenAIModule; client: Client }> | undefined;

  function load(): Promise<{ openai: typeof OpenAIModule; client: Client }> {
    loading ??= import('openai').then(
      (openai) => {
        const client = new openai.OpenAI({
          baseURL,
          apiKey: apiKey === undefined || apiKey === '' ? NO_API_KEY : apiKey,
          // Never read OPENAI_* variables: they belong to another service.
          adminAPIKey: null,
          organization: null,
          project: null,
          webhookSecret: null,
          // Retries are this model's own, so that each can be announced and bounded.
          maxRetries: 0,
          timeout: timeoutMs,
          // The client would print unparsable data to the console, over the UI.
          logLevel: 'off',
          ...(options.headers !== undefined && { defaultHeaders: { ...options.headers } }),
        });
        return { openai, client };
      },
      (error: unknown) => {
        loading = undefined;
        throw new ModelError(
          'Cannot load the `openai` package that talks to OpenAI-compatible servers: reinstall dsh-agent.',
          'MODEL_CLIENT_MISSING',
          { cause: error },
        );
      },
    );
    return loading;
  }

  /**
   * One attempt of the request: streams what arrives, and returns how it failed, or
   * `undefined` when it finished or the caller aborted. `streamed` tells whether anything
   * was handed on: such an attempt cannot be retried without repeating it.
   */
  async function* attempt(
    openai: typeof OpenAIModule,
    client: Client,
    body: Record<string, unknown>,
    signal: AbortSignal,
  ): AsyncGenerator<ModelEvent, { failure: AttemptFailure; streamed: boolean } | undefined> {
    const watch = new SilenceWatch(timeoutMs, signal);
    let streamed = false;
    const failed = (failure: AttemptFailure) =>
      signal.aborted ? undefined : { failure, streamed };
    try {
      let chunks: AsyncIterable<ChatChunk>;
      try {
        // A client of its own per attempt: its fetch tells this attempt's watch what arrives.
        const response = await raceAbort(
          client
            // The watch hears every piece as it comes; the client gets whole events.
            .withOptions({ fetch: wholeEventsFetch(watch.fetch(baseFetch)) })
            .chat.completions.create(
              body as unknown as OpenAIModule.OpenAI.Chat.ChatCompletionCreateParamsStreaming,
              { signal: watch.signal },
            ),
          // A `fetch` of the caller's that ignores its signal cannot hold the attempt.
          watch.signal,
        );
        if (response === ABORTED) {
          return failed(silenceFailure(target, false));
        }
        chunks = response;
      } catch (error) {
        return failed(
          watch.silent ? silenceFailure(target, false) : requestFailure(error, target, openai),
        );
      }
      const calls = new ToolCallAssembler();
      let finish: ModelFinishReason | undefined;
      let received = 0;
      try {
        for await (const chunk of abortable(chunks, watch.signal)) {
          received++;
          const read = readChatChunk(chunk, calls);
          if (read.finish !== undefined) {
            finish = read.finish;
            // The answer is complete: a stream that does not end soon is not waited for.
            watch.endWithin(finishWaitMs);
          }
          if (read.events.length === 0) continue;
          streamed = true;
          watch.hold();
          for (const event of read.events) yield event;
          watch.heard();
        }
      } catch (error) {
        // Cut after the finish (not ended in time, or silent): the answer is complete.
        if (finish === undefined || !(watch.ended || watch.silent)) {
          return failed(
            watch.silent ? silenceFailure(target, streamed) : streamFailure(error, target, openai),
          );
        }
      }
      // On silence the client ends the stream quietly, as on any abort; after the finish,
      // silence only means the server did not end the stream.
      if (watch.silent && finish === undefined) return failed(silenceFailure(target, streamed));
      if (signal.aborted) return undefined;
      if (finish === undefined) return failed(badResponseFailure(target, received === 0));
      for (const call of calls.finish(server)) yield { type: 'tool-call', call };
      yield { type: 'finish', reason: finish };
      return undefined;
    } finally {
      watch.stop();
    }
  }

  async function* stream(request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
    const { signal } = request;
    if (signal.aborted) return;
    const { openai, client } = await load();
    const body = {
      model,
      messages: toOpenAIMessages(request.messages),
      stream: true,
      ...(request.tools.length > 0 && { tools: toOpenAITools(request.tools) }),
      // Fields the client's types do not know (DeepSeek's `thinking`) go in the body as is.
      ...extraFields,
    };
    const started = performance.now();
    for (let number = 1; ; number++) {
      const outcome = yield* attempt(openai, client, body, signal);
      if (outcome === undefined) return;
      const { failure, streamed } = outcome;
      const delayMs =
        streamed || number >= attempts
          ? undefined
          : retryPause(failure.retry, failure.askedMs, number, retryDelayMs);
      if (delayMs === undefined) throw failureError(failure, number, performance.now() - started);
      const error = toToolError(new ModelError(failure.fact, failure.code));
      yield { type: 'retry', attempt: number + 1, attempts, delayMs, error };
      if (!(await pause(delayMs, signal))) return;
    }
  }

  return { id: model, stream };
}
