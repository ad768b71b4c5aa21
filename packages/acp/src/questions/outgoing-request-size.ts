import { invalidRequestError } from 'dsh-user-interaction';
import {
  MAX_MESSAGE_BYTES,
  mebibytes,
  requestByteLength,
  requestByteLengthBound,
} from '../stdio/message-size.js';

/**
 * Throws `INVALID_REQUEST` naming `field` when the request that shows a question would be a
 * message longer than `MAX_MESSAGE_BYTES`: the client's reader would drop the connection, and
 * every session on it, rather than read it. Nothing is sent then; `remedy` says what to ask instead.
 */
export function checkOutgoingRequestSize(
  method: string,
  params: unknown,
  field: string,
  what: string,
  remedy: string,
): void {
  // Nearly every request is far under the limit, which a bound shows cheaply; one that may
  // not be is counted whole (linear, without building the text), so that the refusal says by
  // how much.
  if (requestByteLengthBound(method, params, MAX_MESSAGE_BYTES) <= MAX_MESSAGE_BYTES) return;
  const bytes = requestByteLength(method, params);
  if (bytes <= MAX_MESSAGE_BYTES) return;
  throw invalidRequestError(
    field,
    `would make ${what} of ${mebibytes(bytes)}, over the ${mebibytes(MAX_MESSAGE_BYTES)} limit of an ACP message; ${remedy}`,
  );
}
