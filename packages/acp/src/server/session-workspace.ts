import { logText } from '../stdio/log-text.js';
import type { CheckedAcpAgentOptions, SessionTools } from './acp-agent-options.js';
import type { SessionAgentOptions } from './acp-session.js';
import { describeError } from './describe-error.js';
import { unexpectedFailure } from './server-errors.js';
import type { SessionMcpServers } from './session-mcp-servers.js';

/** The agent of a session in a workspace, and how its tools run there. */
export interface SessionWorkspace {
  readonly agent: SessionAgentOptions;
  /** What `toolsFor` said of how the tools run (sent as `_meta.dsh.sandbox`). */
  readonly sandboxStatus?: string;
}

/**
 * The agent options of a session in `cwd`: the server's, with the tools and policy `toolsFor`
 * gives that workspace. A `toolsFor` that fails is logged, and fails the request with `-32603`.
 */
export async function sessionWorkspace(
  options: Pick<CheckedAcpAgentOptions, 'agent' | 'toolsFor' | 'log'>,
  cwd: string,
): Promise<SessionWorkspace> {
  const { agent, toolsFor, log } = options;
  if (toolsFor === undefined) return { agent };
  let given: SessionTools;
  try {
    given = await toolsFor(cwd);
  } catch (error) {
    log(`the tools for ${logText(cwd)} failed: ${describeError(error)}`);
    throw unexpectedFailure();
  }
  const tools = [...(agent.tools ?? []), ...(given?.tools ?? [])];
  const permissions = given?.permissions ?? agent.permissions;
  return {
    agent: {
      ...agent,
      ...(tools.length > 0 && { tools }),
      ...(permissions !== undefined && { permissions }),
    },
    ...(given?.sandboxStatus !== undefined && { sandboxStatus: given.sandboxStatus }),
  };
}

/** A session's agent options with its MCP servers' tools after its own, their policy over its. */
export function withMcpServers(
  workspace: SessionAgentOptions,
  mcp: SessionMcpServers | undefined,
): SessionAgentOptions {
  const tools = [...(workspace.tools ?? []), ...(mcp?.tools ?? [])];
  const permissions = mcp?.permissions(workspace.permissions) ?? workspace.permissions;
  return {
    ...workspace,
    ...(tools.length > 0 && { tools }),
    ...(permissions !== undefined && { permissions }),
  };
}
