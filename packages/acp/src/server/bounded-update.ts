import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import { cutContent, cutText } from '../permissions/cut-content.js';
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

/**
 * `update` as it can be sent to the client: itself when its `session/update` line is within
 * `limit` (the SDK reader's 32 MiB: a longer line ends the connection, with every session), else
 * with its text cut to fit and a note saying how much is not shown (a tool's output, a message
 * chunk), a diff shown from its first change after a note (an edit of a file of megabytes), or
 * without its `rawInput`. Display only: the model keeps the whole text.
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
  const why = `the update would be over the ${mebibytes(limit)} limit of an ACP message`;
  let fitted: SessionUpdate = update;
  if ('content' in update && update.content !== undefined && update.content !== null) {
    const { content } = update;
    if (Array.isArray(content)) {
      fitted = { ...update, content: cutContent(content, bytes - limit, why) } as SessionUpdate;
    } else if (typeof content === 'object' && 'type' in content && content.type === 'text') {
      const text = cutText(content.text, bytes - limit, why);
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
