import type { ModelMessage } from '../models/model.js';

// `{{answer:<id>}}` or `{{answer:<id>|<fallback>}}`; other braces are plain text. For a call
// that asked several questions, `<id>` is `<call id>.<question id>`.
const ANSWER = /\{\{\s*answer:([^}|]*?)\s*(?:\|([^}]*))?\}\}/g;

type ToolMessage = Extract<ModelMessage, { role: 'tool' }>;

/** The ids a text quotes, in order. */
export function quotedIds(text: string): string[] {
  return [...text.matchAll(ANSWER)].map((match) => (match[1] ?? '').trim());
}

/**
 * A quoted id as a call id and, for one question of several, that question's id: the whole id
 * when it is a call's (call ids may hold dots), else split at its last dot (question ids hold none).
 */
export function splitQuotedId(
  id: string,
  isCallId: (id: string) => boolean,
): { readonly callId: string; readonly questionId?: string } {
  const dot = id.lastIndexOf('.');
  if (isCallId(id) || dot < 0) return { callId: id };
  return { callId: id.slice(0, dot), questionId: id.slice(dot + 1) };
}

/** The tool results of a conversation, by tool call id. */
export function resultsById(messages: readonly ModelMessage[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) {
    if (message.role === 'tool') results.set(message.toolCallId, message);
  }
  return results;
}

/**
 * One question's answer in the result of a call that asked several (`{"<id>": {"chosen": [...],
 * "typed": "..."}}`): the chosen values then the typed text, joined with commas.
 */
function itemAnswer(content: string, questionId: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !Object.hasOwn(parsed, questionId)) {
    return undefined;
  }
  const entry = (parsed as Record<string, { chosen?: unknown; typed?: unknown }>)[questionId];
  const chosen = Array.isArray(entry?.chosen) ? entry.chosen.map(String) : [];
  const typed = typeof entry?.typed === 'string' ? [entry.typed] : [];
  const parts = [...chosen, ...typed];
  return parts.length === 0 ? undefined : parts.join(', ');
}

/**
 * Replaces each quote with the answer of that call (or of that question of a call that asked
 * several). A call that failed (or has no result) reads as the fallback when one is given,
 * else as `(no answer: <code>)`.
 */
export function renderTemplate(text: string, results: ReadonlyMap<string, ToolMessage>): string {
  // Most text quotes nothing: no pattern run, no copy.
  if (!text.includes('{{')) return text;
  return text.replace(ANSWER, (_match, rawId: string, fallback: string | undefined) => {
    const { callId, questionId } = splitQuotedId(rawId.trim(), (id) => results.has(id));
    const result = results.get(callId);
    if (result !== undefined && result.error === undefined) {
      const answer =
        questionId === undefined ? result.content : itemAnswer(result.content, questionId);
      if (answer !== undefined) return answer;
    }
    if (fallback !== undefined) return fallback.trim();
    return `(no answer: ${result?.error?.code ?? 'NO_RESULT'})`;
  });
}
