import { fileURLToPath } from 'node:url';
import type { EnvVariable, McpServer } from '@agentclientprotocol/sdk';

// dsh-mcp's loopback MCP server (its test fixture, written with the SDK's own server package),
// as an editor names it in `session/new`: its `echo` describes itself as LOOPBACK_ECHO_DESCRIPTION
// says, `ask_form` and `ask_url` ask the questions they are given.
const SERVER = fileURLToPath(
  new URL('../../../mcp/test/fixtures/stdio-server.mjs', import.meta.url),
);

/** The loopback MCP server over stdio, named `loop`, with `env` set. */
export function loopbackMcpServer(env: EnvVariable[] = []): McpServer {
  return { name: 'loop', command: process.execPath, args: [SERVER], env };
}
