import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { checkRequest, Refusal, refuse, type SentReasoning } from './deepseek-stand-in-request.js';
import { listenOnLoopback, readRequestBody, startEventStream } from './loopback-http.js';

/**
 * A loopback stand-in for DeepSeek's chat-completions API that enforces what DeepSeek documents
 * (api-docs.deepseek.com, "Models & Pricing", "Thinking Mode", "Error Codes"), errors included:
 *
 * - the key: `Authorization: Bearer <key>`, else 401;
 * - the model: only current names (`deepseek-flash`, `deepseek-v4-pro`, and `deepseek-v4-flash`,
 *   still accepted); the retired `deepseek-chat`/`deepseek-reasoner` and unknown names get 400,
 *   with the messages DeepSeek sends;
 * - thinking: on unless `thinking: {type: "disabled"}`; `thinking` and `reasoning_effort` take
 *   only their documented values (422 otherwise);
 * - in thinking mode, reasoning streams as `delta.reasoning_content` before `delta.content` and
 *   before any `delta.tool_calls`, and every assistant message that made tool calls must carry
 *   its `reasoning_content` back, verbatim, in every later request (400 otherwise);
 * - tool results must answer a tool call of the assistant message before them (400 otherwise);
 * - tool calls stream with the id and name in the first delta, the arguments in pieces, one index
 *   per call.
 *
 * What it answers (its "model"): the reply function decides; by default a user message gets a
 * question (an `ask_user_question` call) and a tool result gets a sentence quoting it.
 */
export interface StandInReply {
  /** Reasoning streamed first (thinking mode only). */
  readonly reasoning?: string;
  /** Text streamed after the reasoning. */
  readonly content?: string;
  /** Tool calls streamed after the text: name and arguments (an object, sent as JSON). */
  readonly toolCalls?: readonly { readonly name: string; readonly arguments: object }[];
  /** Waited for after the reasoning, before the text: a model that thinks for a while. */
  readonly afterReasoning?: Promise<void>;
}

/** A request the stand-in accepted or refused. */
export interface StandInRequest {
  readonly body: Record<string, unknown>;
  /** The HTTP status it got (200 for a stream). */
  readonly status: number;
  /** The refusal's message, when it was refused. */
  readonly refusal?: string;
}

/** What a reply function sees of a request. */
export interface StandInTurn {
  readonly messages: readonly Record<string, unknown>[];
  readonly thinking: boolean;
}

/** Options of `startDeepSeekStandIn`. */
export interface DeepSeekStandInOptions {
  /** The key it takes (default `sk-stand-in`). */
  readonly apiKey?: string;
  /** What the "model" answers (default: a question for a user message, a summary for a result). */
  readonly reply?: (turn: StandInTurn) => StandInReply;
  /**
   * A busy DeepSeek: the statuses the first requests get instead of an answer, one each, with
   * the meaning DeepSeek documents (429 rate limit reached, 500 server error, 503 server
   * overloaded).
   */
  readonly busy?: readonly (429 | 500 | 503)[];
}

/** DeepSeek's documented meaning of the statuses of a busy server. */
const BUSY_MESSAGES: Readonly<Record<429 | 500 | 503, string>> = {
  429: 'Rate Limit Reached: you are sending requests too quickly.',
  500: 'Server Error: the server encountered an issue.',
  503: 'Server Overloaded: the server is overloaded due to high traffic.',
};

export const STAND_IN_QUESTION = {
  question: 'Which colour should the fence be?',
  header: 'Colour',
  options: [
    { label: 'Red', description: 'Bold.' },
    { label: 'Blue', recommended: true },
  ],
  allow_custom: false,
} as const;

/** The default "model": asks about the fence, then says what the person chose. */
export function defaultReply({ messages }: StandInTurn): StandInReply {
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    return {
      reasoning: `The person answered ${JSON.stringify(last.content)}. I will confirm it.`,
      content: `Painting the fence ${String(last.content)}.`,
    };
  }
  return {
    reasoning: 'The person wants a fence painted. I need the colour. I will ask.',
    content: 'Let me ask first.',
    toolCalls: [{ name: 'ask_user_question', arguments: STAND_IN_QUESTION }],
  };
}

function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let index = 0; index < text.length; index += size)
    result.push(text.slice(index, index + size));
  return result;
}

async function stream(
  response: ServerResponse,
  model: string,
  thinking: boolean,
  reply: StandInReply,
  sent: SentReasoning,
): Promise<void> {
  const id = randomUUID();
  const created = Math.floor(Date.now() / 1000);
  const write = (delta: object, finish: string | null = null, usage?: object): void => {
    const chunk = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_stand_in',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(usage !== undefined && { usage }),
    };
    events.send(chunk);
  };
  const events = startEventStream(response);
  const reasoningKey = thinking ? { reasoning_content: null } : {};
  write(
    thinking
      ? { role: 'assistant', content: null, reasoning_content: '' }
      : { role: 'assistant', content: '' },
  );
  const reasoning = thinking ? (reply.reasoning ?? 'Thinking.') : '';
  for (const piece of pieces(reasoning, 7)) write({ content: null, reasoning_content: piece });
  await reply.afterReasoning;
  for (const piece of pieces(reply.content ?? '', 5)) write({ content: piece, ...reasoningKey });
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const callId = `call_${String(index).padStart(2, '0')}_${randomUUID().slice(0, 8)}`;
    if (thinking) sent.set(callId, reasoning);
    write({
      tool_calls: [
        { index, id: callId, type: 'function', function: { name: call.name, arguments: '' } },
      ],
    });
    for (const piece of pieces(JSON.stringify(call.arguments), 9)) {
      write({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }
  const finish = (reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop';
  write({ content: '', ...reasoningKey }, finish, {
    prompt_tokens: 10,
    completion_tokens: 10,
    total_tokens: 20,
  });
  events.done();
}

/** Starts the stand-in on 127.0.0.1 (port 0). Its `url` is the base URL to give a client. */
export async function startDeepSeekStandIn(options: DeepSeekStandInOptions = {}) {
  const apiKey = options.apiKey ?? 'sk-stand-in';
  const reply = options.reply ?? defaultReply;
  const busy = [...(options.busy ?? [])];
  const requests: StandInRequest[] = [];
  const sent: SentReasoning = new Map();
  const server = await listenOnLoopback(async (request, response) => {
    const text = await readRequestBody(request);
    let body: Record<string, unknown> = {};
    try {
      if (request.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(request.url ?? '')) {
        throw new Refusal(404, 'Not Found', 'not_found');
      }
      if (request.headers.authorization !== `Bearer ${apiKey}`) {
        throw new Refusal(
          401,
          `Authentication Fails, Your api key: ****${String(request.headers.authorization).slice(-4)} is invalid`,
          'authentication_error',
        );
      }
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new Refusal(400, 'Failed to deserialize the JSON body into the target type');
      }
      const status = busy.shift();
      if (status !== undefined) throw new Refusal(status, BUSY_MESSAGES[status], 'server_error');
      const checked = checkRequest(body, sent);
      if (body.stream !== true)
        throw new Refusal(400, 'The stand-in answers streamed requests only.');
      requests.push({ body, status: 200 });
      await stream(response, checked.model, checked.thinking, reply(checked), sent);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      requests.push({ body, status: error.status, refusal: error.message });
      refuse(response, error);
    }
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    apiKey,
    requests,
    close: () => server.close(),
  };
}
