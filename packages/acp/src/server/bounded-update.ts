import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import {
  jsonByteLength,
  jsonByteLengthBound,
  MAX_MESSAGE_BYTES,
  mebibytes,
} from '../stdio/message-size.js';

/** Bytes of a `session/update` notification's line around its params. */
const ENVELOPE_BYTES = Buffer.byteLength(
  `{"jsonrpc":"2.0","method":"${methods.client.session.update}","params":}\n`,
);

/** Room left for the note that says what was cut, and for rounding. */
const NOTE_BYTES = 256;

/** Bytes of the UTF-16 unit at `index` in a JSON string (a surrogate pair counts at its first unit). */
function unitBytes(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return [0x08, 0x09, 0x0a, 0x0c, 0x0d].includes(code) ? 2 : 6;
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

/** The longest prefix of `text` whose JSON string takes at most `budget` bytes, in one pass (no pair split). */
function prefixWithin(text: string, budget: number): string {
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

/** The text cut to fit a message that would otherwise take `bytes`, with a note saying so. */
function cut(text: string, bytes: number, limit: number): string {
  const budget = jsonByteLength(text) - (bytes - limit) - NOTE_BYTES;
  const kept = prefixWithin(text, Math.max(0, budget));
  return `${kept}\n[… ${text.length - kept.length} more characters not shown: the update would be over the ${mebibytes(limit)} limit of an ACP message]`;
}

/**
 * `update` as it can be sent to the client: itself when its `session/update` line is within
 * `limit` (the SDK reader's 32 MiB: a longer line ends the connection, with every session), else
 * with its text cut to fit and a note saying how much is not shown (a tool's output, a message
 * chunk), or without its `rawInput`. Display only: the model keeps the whole text.
 */
export function boundedUpdate(
  sessionId: string,
  update: SessionUpdate,
  limit = MAX_MESSAGE_BYTES,
): SessionUpdate {
  const size = (candidate: SessionUpdate): number =>
    ENVELOPE_BYTES + jsonByteLength({ sessionId, update: candidate });
  // A bound first: nearly every update is far under the limit, and is then not counted exactly.
  if (ENVELOPE_BYTES + jsonByteLengthBound({ sessionId, update }, limit) <= limit) return update;
  const bytes = size(update);
  if (bytes <= limit) return update;
  let fitted: SessionUpdate = update;
  if ('content' in update && update.content !== undefined && update.content !== null) {
    const { content } = update;
    if (Array.isArray(content)) {
      // The largest text goes first; the rest are kept as they are.
      let largest = -1;
      content.forEach((item, index) => {
        if (item.type !== 'content' || item.content.type !== 'text') return;
        const best = content[largest];
        if (
          best === undefined ||
          (best.type === 'content' &&
            best.content.type === 'text' &&
            item.content.text.length > best.content.text.length)
        ) {
          largest = index;
        }
      });
      const item = content[largest];
      if (item !== undefined && item.type === 'content' && item.content.type === 'text') {
        const text = cut(item.content.text, bytes, limit);
        const items = content.map((entry, index) =>
          index === largest ? { ...item, content: { ...item.content, text } } : entry,
        );
        fitted = { ...update, content: items } as SessionUpdate;
      }
    } else if (typeof content === 'object' && 'type' in content && content.type === 'text') {
      const text = cut(content.text, bytes, limit);
      fitted = { ...update, content: { ...content, text } } as SessionUpdate;
    }
  }
  if (size(fitted) > limit && 'rawInput' in fitted) {
    const { rawInput: _dropped, ...rest } = fitted;
    fitted = rest as SessionUpdate;
  }
  if (size(fitted) > limit && 'rawOutput' in fitted) {
    const { rawOutput: _dropped, ...rest } = fitted;
    fitted = rest as SessionUpdate;
  }
  return fitted;
}
