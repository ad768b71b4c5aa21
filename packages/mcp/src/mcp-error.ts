import { HarnessError } from 'dsh-user-interaction';

/** Every code an `McpError` carries; callers branch on these, never on the message. */
export const MCP_ERROR_CODES = [
  /** The `mcpServers` configuration cannot be read as written. */
  'MCP_CONFIG_INVALID',
  /** A server could not be started or connected to. */
  'MCP_CONNECT_FAILED',
  /** The server went away (its process exited, its connection closed) before it answered. */
  'MCP_SERVER_CLOSED',
  /** The server said nothing for the call's idle limit (time a question waits for the person is not counted). */
  'MCP_SERVER_TIMEOUT',
  /** The server answered the call with a protocol error. */
  'MCP_CALL_FAILED',
  /** The tool ran and reported a failure (`isError`). */
  'MCP_TOOL_ERROR',
  /** The tool is no longer offered by its server. */
  'MCP_TOOL_GONE',
  /** The call was cancelled (the turn was stopped). */
  'MCP_CALL_CANCELLED',
  /** The call stopped (a crash, a kill) while its server waited for an answer, and cannot go on. */
  'MCP_CALL_INTERRUPTED',
  /** `answerElicitations` was given a client that is already connected (capabilities are fixed at connect). */
  'MCP_CLIENT_CONNECTED',
] as const;

/** One of `MCP_ERROR_CODES`. */
export type McpErrorCode = (typeof MCP_ERROR_CODES)[number];

/** A failure of this package: a `HarnessError` named `McpError` with a stable `code`. */
export class McpError extends HarnessError<McpErrorCode> {}

/** True for an `McpError` (optionally of `code`), also one from a second copy of this package. */
export const isMcpError = HarnessError.define(McpError, 'McpError', MCP_ERROR_CODES);
