import type { AgentConnection, Stream } from '@agentclientprotocol/sdk';
import { AcpAgent } from './acp-agent.js';
import { type AcpAgentServerOptions, checkAcpAgentOptions } from './acp-agent-options.js';

export {
  type AcpAgentServerOptions,
  type CheckedAcpAgentOptions,
  checkAcpAgentOptions,
  type SessionTools,
} from './acp-agent-options.js';

/** A running ACP agent server: one connection, any number of sessions. */
export interface AcpAgentServer {
  /** The SDK's connection to the client. */
  readonly connection: AgentConnection;
  /** How many sessions are open. */
  readonly sessions: number;
  /** Resolves once the connection has closed and every turn has ended. */
  readonly done: Promise<void>;
  /** Closes the connection: pending questions fail with `INPUT_CLOSED` and running turns end. */
  close(reason?: unknown): void;
}

/**
 * Serves the dsh agent loop to an ACP client over `stream` (for an editor, newline-delimited
 * JSON-RPC on stdio: see `acpStdioStream`). Each `session/new` gets its own agent and
 * question service; questions go to the client as forms (a client without them gets none, unless
 * `questionsAsPermissions`); tool calls are shown as ACP tool calls and approved with
 * `session/request_permission`; `session/cancel` ends the session's turn with `cancelled` and withdraws
 * its question. Throws a `TypeError` for invalid options (see `checkAcpAgentOptions`).
 */
export function serveAcpAgent(stream: Stream, options: AcpAgentServerOptions): AcpAgentServer {
  const agent = new AcpAgent(stream, checkAcpAgentOptions(options));
  return {
    connection: agent.connection,
    get sessions() {
      return agent.sessions;
    },
    done: agent.done,
    close: (reason) => agent.connection.close(reason),
  };
}
