import { RequestError } from '@agentclientprotocol/sdk';
import { isSessionError } from 'dsh-agent';

/** JSON-RPC "invalid request": the request cannot be served in the session's present state. */
const INVALID_REQUEST = -32600;
/** ACP "request cancelled". */
const REQUEST_CANCELLED = -32800;

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

/** The `cwd` holds a NUL character, which no folder path can. */
export function nulInWorkingDirectory(cwd: string): RequestError {
  return RequestError.invalidParams(
    { cwd },
    'cwd holds a NUL character (\\0): no folder path can, so it names no folder',
  );
}

/** Something failed that should not have; the details go to stderr, never to the client. */
export function unexpectedFailure(): RequestError {
  return RequestError.internalError(
    { code: 'INTERNAL_ERROR' },
    'the agent failed unexpectedly (see its log)',
  );
}

/**
 * Why `session/load` failed, as the client gets it: `-32002` for a session not on disk,
 * `-32600` (`SESSION_LOCKED`) naming the process that has it open, `-32603`
 * (`SESSION_INVALID`) naming its damaged file and line. `undefined` for anything else.
 */
export function loadSessionFailure(sessionId: string, error: unknown): RequestError | undefined {
  if (!isSessionError(error)) return undefined;
  switch (error.code) {
    case 'SESSION_NOT_FOUND':
      return sessionNotFound(sessionId);
    case 'SESSION_LOCKED':
      return new RequestError(INVALID_REQUEST, error.message, {
        code: 'SESSION_LOCKED',
        sessionId,
      });
    default:
      return RequestError.internalError({ code: error.code, sessionId }, error.message);
  }
}

/**
 * Why `session/list` failed, as the client gets it: `-32603` with the store's code
 * (`SESSION_UNSAFE`: the folder is not safe as found; `SESSION_READ_FAILED`) and its one-line
 * message naming the folder. `undefined` for anything else.
 */
export function listSessionsFailure(error: unknown): RequestError | undefined {
  if (!isSessionError(error)) return undefined;
  return RequestError.internalError({ code: error.code }, error.message);
}

/**
 * The `session/load` failed because a `session/close` of the same session arrived while it
 * loaded: the close wins, the session stays closed (`-32800`, as for a cancelled request,
 * `data.code` `SESSION_CLOSED`).
 */
export function closedWhileLoading(sessionId: string): RequestError {
  return new RequestError(
    REQUEST_CANCELLED,
    'session/close closed this session while it was loading: send session/load again to reopen it',
    { code: 'SESSION_CLOSED', sessionId },
  );
}

/** A `session/list` cursor this agent did not give. */
export function invalidCursor(cursor: string): RequestError {
  return RequestError.invalidParams(
    { cursor: cursor.slice(0, 200) },
    'the cursor is not one this agent gave: start again without one',
  );
}
