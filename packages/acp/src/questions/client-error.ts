import {
  askCancelledError,
  askFailedError,
  type UserInteractionError,
  unsupportedError,
} from 'dsh-user-interaction';

/** JSON-RPC "method not found": the client does not implement the request we sent. */
const METHOD_NOT_FOUND = -32601;
/** ACP "request cancelled": the client cancelled the question itself. */
const REQUEST_CANCELLED = -32800;

function rpcCode(error: unknown): number | undefined {
  const code =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/**
 * A `UserInteractionError` for a JSON-RPC error reply of the client: `UNSUPPORTED` for
 * method-not-found, `ASK_CANCELLED` for a request the client cancelled (-32800), else
 * `ASK_FAILED`. The original stays in `cause`; its text may carry
 * client details the model must not see.
 */
export function errorFromClient(error: unknown): UserInteractionError {
  const code = rpcCode(error);
  if (code === METHOD_NOT_FOUND) {
    return unsupportedError('the editor does not support this kind of question', error);
  }
  if (code === REQUEST_CANCELLED) {
    return askCancelledError(error);
  }
  const detail = code === undefined ? '' : ` (JSON-RPC error ${code})`;
  return askFailedError(error, `the editor failed to ask it${detail}`);
}
