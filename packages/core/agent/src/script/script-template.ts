import type { ModelMessage } from '../models/model.js';

// `{{answer:<id>}}` or `{{answer:<id>|<fallback>}}`; other braces are plain text.
const ANSWER = /\{\{\s*answer:([^}|]*?)\s*(?:\|([^}]*))?\}\}/g;

/** The ids a text quotes, in order. */
export function quotedIds(text: string): string[] {
  return [...text.matchAll(ANSWER)].map((match) => (match[1] ?? '').trim());
}

/** The tool results of a conversation, by tool call id. */
export function resultsById(
  messages: readonly ModelMessage[],
): Map<string, Extract<ModelMessage, { role: 'tool' }>> {
  const results = new Map<string, Extract<ModelMessage, { role: 'tool' }>>();
  for (const message of messages) {
    if (message.role === 'tool') results.set(message.toolCallId, message);
  }
  return results;
}

/**
 * Replaces each quote with the answer of that call. A call that failed (or has no result)
 * reads as the fallback when one is given, else as `(no answer: <code>)`.
 */
export function renderTemplate(
  text: string,
  results: ReadonlyMap<string, Extract<ModelMessage, { role: 'tool' }>>,
): string {
  return text.replace(ANSWER, (_match, rawId: string, fallback: string | undefined) => {
    const result = results.get(rawId.trim());
    if (result !== undefined && result.error === undefined) return result.content;
    if (fallback !== undefined) return fallback.trim();
    return `(no answer: ${result?.error?.code ?? 'NO_RESULT'})`;
  });
}
