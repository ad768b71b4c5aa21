import type { ServerResponse } from 'node:http';
import { sendBody } from './loopback-http.js';

/**
 * What the DeepSeek stand-in (`deepseek-stand-in.ts`) enforces of a request, as DeepSeek
 * documents it (api-docs.deepseek.com, "Models & Pricing", "Thinking Mode", "Error Codes"), and
 * the error body it refuses one with.
 */

export const CURRENT_MODELS = ['deepseek-flash', 'deepseek-v4-pro', 'deepseek-v4-flash'];
const RETIRED_MODELS = ['deepseek-chat', 'deepseek-reasoner'];
const EFFORTS = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'ultra'];
export const REASONING_NOT_PASSED_BACK =
  'The `reasoning_content` in the thinking mode must be passed back to the API.';

/** A request DeepSeek refuses: the status and message it answers with. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
  ) {
    super(message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The reasoning it streamed with each of its tool calls, to check what comes back. */
export type SentReasoning = Map<string, string>;

/** Checks a request's body as DeepSeek does; throws the `Refusal` DeepSeek would answer. */
export function checkRequest(
  body: unknown,
  sent: SentReasoning,
): { model: string; thinking: boolean; messages: Record<string, unknown>[] } {
  if (!isRecord(body)) throw new Refusal(400, 'Failed to deserialize the JSON body.');
  const { model, thinking, reasoning_effort: effort, messages } = body;
  if (typeof model !== 'string') throw new Refusal(400, 'Model Not Exist');
  if (RETIRED_MODELS.includes(model)) {
    throw new Refusal(
      400,
      `The supported API model names are deepseek-flash or deepseek-v4-pro, but you passed ${model}.`,
    );
  }
  if (!CURRENT_MODELS.includes(model)) throw new Refusal(400, 'Model Not Exist');
  if (
    thinking !== undefined &&
    !(isRecord(thinking) && (thinking.type === 'enabled' || thinking.type === 'disabled'))
  ) {
    throw new Refusal(422, 'thinking.type: expected "enabled" or "disabled"');
  }
  if (effort !== undefined && !EFFORTS.includes(effort as string)) {
    throw new Refusal(422, `reasoning_effort: unknown variant ${JSON.stringify(effort)}`);
  }
  if (!Array.isArray(messages) || messages.length === 0 || !messages.every(isRecord)) {
    throw new Refusal(400, 'messages: expected a non-empty array of objects');
  }
  const thinkingOn = !(isRecord(thinking) && thinking.type === 'disabled');
  let open: string[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (open[0] !== message.tool_call_id) {
        throw new Refusal(
          400,
          "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
        );
      }
      open = open.slice(1);
      continue;
    }
    if (open.length > 0) {
      throw new Refusal(
        400,
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message at index ${index - 1})`,
      );
    }
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    const calls = message.tool_calls as { id?: unknown }[];
    open = calls.map((call) => String(call.id));
    if (!thinkingOn) continue;
    const reasoning = message.reasoning_content;
    if (typeof reasoning !== 'string') throw new Refusal(400, REASONING_NOT_PASSED_BACK);
    // What it streamed with those calls must come back exactly.
    for (const id of open) {
      const expected = sent.get(id);
      if (expected !== undefined && expected !== reasoning) {
        throw new Refusal(400, REASONING_NOT_PASSED_BACK);
      }
    }
  }
  return { model, thinking: thinkingOn, messages };
}

/** Answers with DeepSeek's error body. */
export function refuse(response: ServerResponse, refusal: Refusal): void {
  sendBody(
    response,
    refusal.status,
    JSON.stringify({
      error: {
        message: refusal.message,
        type: refusal.type,
        param: null,
        code: 'invalid_request_error',
      },
    }),
  );
}
