import { HarnessError } from 'dsh-user-interaction';

/** Every way the agent loop itself reports a problem. Each is documented in the package README. */
export const AGENT_ERROR_CODES = [
  'AGENT_BUSY',
  'UNKNOWN_TOOL',
  'INVALID_ARGUMENTS',
  'TURN_CANCELLED',
  'STEP_LIMIT',
  'PERMISSION_DENIED',
  'TOOL_INTERRUPTED',
] as const;

/** A stable code of an `AgentError`. */
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

/** A failure of the agent loop, with a stable `code`. */
export class AgentError extends HarnessError<AgentErrorCode> {}

/** True for an `AgentError` from this or any other copy of the package, optionally with the code. */
export const isAgentError = HarnessError.define(AgentError, 'AgentError', AGENT_ERROR_CODES);
