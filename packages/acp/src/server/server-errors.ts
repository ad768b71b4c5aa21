import { RequestError } from '@agentclientprotocol/sdk';

/** JSON-RPC "invalid request": the request cannot be served in the session's present state. */
const INVALID_REQUEST = -32600;

/** The session is running a turn; ACP sessions take one prompt at a time. */
export function turnAlreadyRunning(sessionId: string): RequestError {
  return new RequestError(
    INVALID_REQUEST,
    'This session is already running a turn: wait for its response, or send session/cancel first.',
    { code: 'AGENT_BUSY', sessionId },
  );
}

/** No session of that id is open on this connection (`-32002`, with `data.sessionId`, as ACP asks). */
export function sessionNotFound(sessionId: string): RequestError {
  return RequestError.sessionNotFound(sessionId);
}

/** The `cwd` of `session/new` is not an absolute path, which ACP requires. */
export function relativeWorkingDirectory(cwd: string): RequestError {
  return RequestError.invalidParams({ cwd }, 'cwd must be an absolute path');
}

/** Something failed that should not have; the details go to stderr, never to the client. */
export function unexpectedFailure(): RequestError {
  return RequestError.internalError(
    { code: 'INTERNAL_ERROR' },
    'the agent failed unexpectedly (see its log)',
  );
}

/** `session/load` of a session another process has open: the message names that process. */
export function sessionLocked(sessionId: string, message: string): RequestError {
  return new RequestError(INVALID_REQUEST, message, { code: 'SESSION_LOCKED', sessionId });
}

/** A saved session that cannot be read: the message names the file and the damaged line. */
export function sessionUnreadable(sessionId: string, message: string): RequestError {
  return RequestError.internalError({ code: 'SESSION_INVALID', sessionId }, message);
}

/** A `session/list` cursor this agent did not give. */
export function invalidCursor(cursor: string): RequestError {
  return RequestError.invalidParams(
    { cursor: cursor.slice(0, 200) },
    'the cursor is not one this agent gave: start again without one',
  );
}
