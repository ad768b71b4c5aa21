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
  baseUrlProblem,
  checkOptions,
  type OpenAICompatibleModelOptions,
} from './openai-compatible-model-options.js';
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
  retryPause,
} from './retry-policy.js';
import { SilenceWatch } from './silence-watch.js';
import { ToolCallAssembler } from './tool-call-assembler.js';
import { wholeEventsFetch } from './whole-events.js';

/** The key sent to a server that needs none (most local servers ignore it, the client needs one). */
export const NO_API_KEY = 'no-key';

type Client = InstanceType<typeof OpenAIModule.OpenAI>;

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
