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
    if (typeof item === 'string') total += utf8(JSON.stringify(item));
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
        total += utf8(JSON.stringify(key)) + 1;
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
