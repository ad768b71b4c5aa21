import type { JsonRpcId } from '@agentclientprotocol/sdk';

/** What the start of a JSON-RPC message shows of it. */
export interface MessageHead {
  /** A request or notification (it has a `method`), a response (`result` or `error`), or unknown. */
  readonly kind: 'call' | 'response' | 'unknown';
  /** The message's `id`, when the start shows it whole. */
  readonly id?: JsonRpcId;
}

function skipSpace(text: string, index: number): number {
  let at = index;
  while (at < text.length && ' \t\r\n'.includes(text[at] as string)) at++;
  return at;
}

/** The index after the string starting at `index`, or -1 when the text ends inside it. */
function stringEnd(text: string, index: number): number {
  for (let at = index + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at + 1;
  }
  return -1;
}

/** The index after the value starting at `index`, or -1 when the text ends inside it. */
function valueEnd(text: string, index: number): number {
  const first = text[index];
  if (first === '"') return stringEnd(text, index);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let at = index; at < text.length; at++) {
      const character = text[at];
      if (character === '"') {
        at = stringEnd(text, at) - 1;
        if (at < 0) return -1;
      } else if (character === '{' || character === '[') depth++;
      else if (character === '}' || character === ']') {
        depth--;
        if (depth === 0) return at + 1;
      }
    }
    return -1;
  }
  // A number or a literal: whole only once something follows it.
  for (let at = index; at < text.length; at++) {
    if (',}] \t\r\n'.includes(text[at] as string)) return at;
  }
  return -1;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads what it can of a JSON-RPC message from the start of its text (the rest may be missing,
 * as for a message too large to keep): its kind and its `id`, when they come before the text
 * ends. Linear in the text; never throws.
 */
export function messageHead(text: string): MessageHead {
  let kind: MessageHead['kind'] = 'unknown';
  let id: { value: JsonRpcId } | undefined;
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return { kind };
  at = skipSpace(text, at + 1);
  while (at < text.length && text[at] === '"') {
    const keyEnd = stringEnd(text, at);
    if (keyEnd === -1) break;
    const key = parsed(text.slice(at, keyEnd));
    if (key === 'method') kind = 'call';
    else if ((key === 'result' || key === 'error') && kind === 'unknown') kind = 'response';
    at = skipSpace(text, keyEnd);
    if (text[at] !== ':') break;
    at = skipSpace(text, at + 1);
    const end = valueEnd(text, at);
    if (end === -1) break;
    if (key === 'id') {
      const value = parsed(text.slice(at, end));
      if (typeof value === 'string' || typeof value === 'number' || value === null) id = { value };
    }
    at = skipSpace(text, end);
    if (text[at] !== ',') break;
    at = skipSpace(text, at + 1);
  }
  return id === undefined ? { kind } : { kind, id: id.value };
}
