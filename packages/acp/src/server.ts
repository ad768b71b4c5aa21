// `dsh-acp/server`: the dsh agent served to editors over ACP (what the `dsh-acp` command runs),
// for a program of your own built the same way. It loads the agent loop, the workspace tools and
// MCP; the question provider alone is the root's and loads none of them.
export {
  type AcpAgentServer,
  type AcpAgentServerOptions,
  type SessionTools,
  serveAcpAgent,
} from './server/acp-agent-server.js';
export type { SessionAgentOptions } from './server/acp-session.js';
