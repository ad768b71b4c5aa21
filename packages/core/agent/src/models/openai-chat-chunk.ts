import type { OpenAI } from 'openai';
import type { ModelEvent, ModelFinishReason } from './model.js';
import type { ToolCallAssembler, ToolCallDelta } from './tool-call-assembler.js';

/** One streamed chunk of a chat completion. */
export type ChatChunk = OpenAI.Chat.Completions.ChatCompletionChunk;

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

/**
 * Reads one chunk: the reasoning and text it carries as events, its tool-call pieces into
 * `calls`, and the finish reason it gives, if any.
 */
export function readChatChunk(
  chunk: ChatChunk,
  calls: ToolCallAssembler,
): { readonly events: ModelEvent[]; readonly finish: ModelFinishReason | undefined } {
  const choice = Array.isArray(chunk?.choices) ? chunk.choices[0] : undefined;
  const delta = choice?.delta;
  const events: ModelEvent[] = [];
  const reasoning = reasoningOf(delta);
  if (reasoning !== undefined) events.push(reasoning);
  if (typeof delta?.content === 'string' && delta.content !== '') {
    events.push({ type: 'text-delta', text: delta.content });
  }
  if (Array.isArray(delta?.tool_calls)) calls.add(delta.tool_calls as ToolCallDelta[]);
  const reason = choice?.finish_reason;
  return {
    events,
    finish: typeof reason === 'string' ? (FINISH_REASONS[reason] ?? 'other') : undefined,
  };
}
