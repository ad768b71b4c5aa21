import { DEFAULT_MAX_MESSAGE_BYTES } from '@agentclientprotocol/sdk';

/**
 * The longest message (one line, in bytes) this agent reads by default, and the longest it
 * sends: the SDK's own reader, which editors use, ends the connection on a longer one.
 */
export const MAX_MESSAGE_BYTES: number = DEFAULT_MAX_MESSAGE_BYTES;

/** Bytes kept for a request's `id`: the SDK numbers them; a UUID string would fit too. */
const ID_BYTES = 40;

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * The UTF-8 length of `JSON.stringify(value)` for plain JSON data (objects, arrays, strings,
 * numbers, booleans, null; `undefined` properties left out), counted without building the
 * text and given up once past `limit`: then some number over `limit` is returned. Linear in
 * the part of `value` it reads, so a form of any size is sized in bounded time and memory.
 */
export function jsonByteLength(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const visit = (item: unknown): void => {
    if (total > limit) return;
    if (typeof item === 'string') total += jsonStringBytes(item);
    else if (typeof item === 'number' || typeof item === 'boolean' || item === null) {
      total += JSON.stringify(item).length;
    } else if (Array.isArray(item)) {
      total += 2 + Math.max(0, item.length - 1);
      for (const element of item) {
        if (total > limit) return;
        // As JSON.stringify does: what JSON cannot hold is `null` in an array.
        if (element === undefined || typeof element === 'function') total += 4;
        else visit(element);
      }
    } else if (typeof item === 'object') {
      let fields = 0;
      total += 2;
      for (const [key, field] of Object.entries(item)) {
        if (total > limit) return;
        if (field === undefined || typeof field === 'function') continue;
        if (fields++ > 0) total += 1;
        total += jsonStringBytes(key) + 1;
        visit(field);
      }
    } else total += 4;
  };
  visit(value);
  return total;
}

/** The most bytes a JSON number takes (`-1.2345678901234567e-308`). */
const NUMBER_BYTES = 25;

/**
 * Some number at least the UTF-8 length of `JSON.stringify(value)` for plain JSON data, found
 * without encoding a single string: each UTF-16 unit of a string takes at most 6 bytes (a
 * `\u` escape), a number at most 25. Given up once past `limit` (then over it). Far cheaper
 * than `jsonByteLength`, so the few messages near the limit are the only ones counted exactly.
 */
export function jsonByteLengthBound(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const visit = (item: unknown): void => {
    if (typeof item === 'string') total += 6 * item.length + 2;
    else if (typeof item === 'number') total += NUMBER_BYTES;
    else if (typeof item === 'boolean' || item === null) total += 5;
    else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (const element of item) {
        if (total > limit) return;
        if (element === undefined || typeof element === 'function') total += 4;
        else visit(element);
      }
    } else if (typeof item === 'object') {
      total += 2;
      for (const key in item) {
        if (total > limit) return;
        if (!Object.hasOwn(item, key)) continue;
        const field = (item as Record<string, unknown>)[key];
        if (field === undefined || typeof field === 'function') continue;
        total += 6 * key.length + 4;
        visit(field);
      }
    } else total += 4;
  };
  visit(value);
  return total;
}

/**
 * The length of the line that sends request `method` with `params` (a bound: the id is
 * counted at its longest), or some number over `limit` once past it.
 */
export function requestByteLength(
  method: string,
  params: unknown,
  limit = Number.POSITIVE_INFINITY,
): number {
  const envelope = utf8(`{"jsonrpc":"2.0","id":,"method":${JSON.stringify(method)},"params":}\n`);
  return envelope + ID_BYTES + jsonByteLength(params, limit);
}

/** Some number at least `requestByteLength(method, params)`, from `jsonByteLengthBound`. */
export function requestByteLengthBound(
  method: string,
  params: unknown,
  limit = Number.POSITIVE_INFINITY,
): number {
  return 6 * method.length + 64 + ID_BYTES + jsonByteLengthBound(params, limit);
}

/** `bytes` in MiB (one decimal, rounded up, so that over the limit never reads as the limit). */
export function mebibytes(bytes: number): string {
  const tenths = Math.ceil((bytes / 2 ** 20) * 10);
  return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)} MiB`;
}

/** Bytes of the UTF-16 unit at `index` in a JSON string (a surrogate pair counts at its first unit). */
function unitBytes(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code === 0x22 || code === 0x5c) return 2;
  // \b \t \n \f \r take two bytes; every other control character a `\u` escape.
  if (code < 0x20)
    return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 6;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(index - 1);
    return previous >= 0xd800 && previous <= 0xdbff ? 0 : 6;
  }
  return 3;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: what JSON escapes is the point.
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * The UTF-8 length of `JSON.stringify(text)`, without building it: the native count for text
 * with nothing to escape, else one pass (a text dense in control characters, which
 * `JSON.stringify` escapes slowly, is counted about as fast as any other).
 */
export function jsonStringBytes(text: string): number {
  if (!ESCAPED.test(text)) return utf8(text) + 2;
  let total = 2;
  for (let index = 0; index < text.length; index++) total += unitBytes(text, index);
  return total;
}

/** The longest prefix of `text` whose JSON string takes at most `budget` bytes, in one pass (no pair split). */
export function jsonStringPrefix(text: string, budget: number): string {
  let used = 2;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const pair = code >= 0xd800 && code <= 0xdbff && unitBytes(text, end) === 4;
    const bytes = unitBytes(text, end);
    if (used + bytes > budget) break;
    used += bytes;
    end += pair ? 2 : 1;
  }
  return text.slice(0, end);
}
