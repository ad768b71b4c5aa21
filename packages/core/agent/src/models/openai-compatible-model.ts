import type * as OpenAIModule from 'openai';
import { ABORTED, abortable, raceAbort } from '../loop/abortable.js';
import {
  DEEPSEEK_BASE_URL,
  DEEPSEEK_MODEL,
  isDeepSeekHost,
  speaksDeepSeek,
  thinkingFields,
} from './deepseek.js';
import type { Model, ModelEvent, ModelFinishReason, ModelRequest } from './model.js';
import { ModelError } from './model-error.js';
import {
  displayServer,
  type ModelTarget,
  requestError,
  streamError,
} from './openai-model-error.js';
import { toOpenAIMessages, toOpenAITools } from './openai-request.js';
import type { ThinkingLevel } from './thinking.js';
import { ToolCallAssembler, type ToolCallDelta } from './tool-call-assembler.js';

/** The key sent to a server that needs none (most local servers ignore it, the client needs one). */
export const NO_API_KEY = 'no-key';

/** Options of `createOpenAICompatibleModel`. */
export interface OpenAICompatibleModelOptions {
  /** The server's base URL (default: DeepSeek). Ollama: `http://localhost:11434/v1`. */
  readonly baseURL?: string;
  /** The model name (default `deepseek-flash`). Never checked here: the server decides. */
  readonly model?: string;
  /**
   * The API key. Default: `DEEPSEEK_API_KEY` when the server is DeepSeek; for any other
   * server, no key (a placeholder is sent, which local servers ignore).
   */
  readonly apiKey?: string;
  /**
   * How much the model reasons: DeepSeek (its server, or a model named `deepseek-…`) gets
   * `thinking` and `reasoning_effort`; other servers get `reasoning_effort` (`none` for off).
   * Default: nothing is sent, and the server's default applies.
   */
  readonly thinking?: ThinkingLevel;
  /** Retries of a failed request (429, 5xx, connection errors) before it fails (default 2). */
  readonly maxRetries?: number;
  /** How long to wait for the server to start answering, in milliseconds (default 120000). */
  readonly timeoutMs?: number;
  /** Extra HTTP headers for every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

type Client = InstanceType<typeof OpenAIModule.OpenAI>;
type Chunk = OpenAIModule.OpenAI.Chat.Completions.ChatCompletionChunk;

const FINISH_REASONS: Record<string, ModelFinishReason> = {
  stop: 'stop',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  length: 'length',
};

/**
 * Where servers put a message's reasoning in a streamed delta: DeepSeek (and vLLM, llama.cpp's
 * server…) in `reasoning_content`, others (OpenRouter, Ollama…) in `reasoning`.
 */
const REASONING_FIELDS = ['reasoning_content', 'reasoning'] as const;

function reasoningOf(delta: unknown): ModelEvent | undefined {
  if (typeof delta !== 'object' || delta === null) return undefined;
  for (const field of REASONING_FIELDS) {
    const text = (delta as Record<string, unknown>)[field];
    // An empty string still tells which field the server uses: it is sent back in that field.
    if (typeof text === 'string') return { type: 'reasoning-delta', text, field };
  }
  return undefined;
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
  const timeoutMs = options.timeoutMs ?? 120_000;
  const target: ModelTarget = { server, model, apiKey: apiKey ?? '', timeoutMs, deepSeek };
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
          maxRetries: options.maxRetries ?? 2,
          timeout: timeoutMs,
          // The client would print unparsable data to the console, over the UI.
          logLevel: 'off',
          ...(options.headers !== undefined && { defaultHeaders: { ...options.headers } }),
          ...(options.fetch !== undefined && { fetch: options.fetch }),
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

  async function* stream(request: ModelRequest): AsyncGenerator<ModelEvent, void, undefined> {
    const { signal } = request;
    if (signal.aborted) return;
    const { openai, client } = await load();
    let chunks: AsyncIterable<Chunk>;
    try {
      const response = await raceAbort(
        client.chat.completions.create(
          {
            model,
            messages: toOpenAIMessages(request.messages),
            stream: true,
            ...(request.tools.length > 0 && { tools: toOpenAITools(request.tools) }),
            // Fields the client's types do not know (DeepSeek's `thinking`) go in the body as is.
            ...extraFields,
          },
          { signal },
        ),
        signal,
      );
      if (response === ABORTED) return;
      chunks = response;
    } catch (error) {
      if (signal.aborted) return;
      throw requestError(error, target, openai);
    }
    const calls = new ToolCallAssembler();
    let finish: ModelFinishReason | undefined;
    let received = 0;
    try {
      for await (const chunk of abortable(chunks, signal)) {
        received++;
        const choice = Array.isArray(chunk?.choices) ? chunk.choices[0] : undefined;
        const delta = choice?.delta;
        const reasoning = reasoningOf(delta);
        if (reasoning !== undefined) yield reasoning;
        if (typeof delta?.content === 'string' && delta.content !== '') {
          yield { type: 'text-delta', text: delta.content };
        }
        if (Array.isArray(delta?.tool_calls)) calls.add(delta.tool_calls as ToolCallDelta[]);
        if (typeof choice?.finish_reason === 'string') {
          finish = FINISH_REASONS[choice.finish_reason] ?? 'other';
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      throw streamError(error, target, openai);
    }
    if (signal.aborted) return;
    if (finish === undefined) {
      throw new ModelError(
        received === 0
          ? `The model server at ${server} sent no chat-completions data. Check that the base URL points to an OpenAI-compatible server (usually ending in /v1).`
          : `The model server at ${server} ended its response before the model finished. Try again.`,
        'MODEL_BAD_RESPONSE',
      );
    }
    for (const call of calls.finish(server)) yield { type: 'tool-call', call };
    yield { type: 'finish', reason: finish };
  }

  return { id: model, stream };
}
