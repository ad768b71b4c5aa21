import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type {
  McpAgentTool,
  McpServerConfig,
  McpServerConnection,
  McpToolContext,
  McpToolResult,
} from '../../src/index.js';

/** The protocol eras a test runs against: the 2025 `initialize` handshake, or 2026-07-28. */
export type Era = 'legacy' | 'modern';
export const ERAS: readonly Era[] = ['legacy', 'modern'];

/** The command that starts the loopback server over stdio. */
export const STDIO_SERVER = {
  command: process.execPath,
  args: [fileURLToPath(new URL('../fixtures/stdio-server.mjs', import.meta.url))],
};

/** The loopback server over stdio as dsh's configuration names it, `loop`, with `env` added. */
export function loopStdioConfig(env: Record<string, string> = {}): McpServerConfig {
  return {
    name: 'loop',
    transport: 'stdio',
    command: STDIO_SERVER.command,
    args: STDIO_SERVER.args,
    env,
  };
}

/** The agent tool of a `loop` connection for the server's tool `name` (throws if there is none). */
export function loopTool(connection: McpServerConnection, name: string): McpAgentTool {
  const found = connection.tools.tools.find((candidate) => candidate.name === `mcp__loop__${name}`);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

/** Calls a `loop` connection's tools as the agent does: a fresh signal, tool call `c1`. */
export function loopToolCaller(connection: McpServerConnection) {
  return async (name: string, args: object = {}): Promise<McpToolResult> => {
    const context: McpToolContext = { signal: new AbortController().signal, toolCallId: 'c1' };
    return loopTool(connection, name).execute(args, context);
  };
}

/** A client of the given era, not yet connected. */
export function eraClient(era: Era): Client {
  return new Client(
    { name: 'dsh-test', version: '0.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
}

/** A stdio transport to the loopback server, its stderr piped (not mixed into the test output). */
export function stdioTransport(env: Record<string, string> = {}): StdioClientTransport {
  return new StdioClientTransport({
    ...STDIO_SERVER,
    env: { ...process.env, ...env } as Record<string, string>,
    stderr: 'pipe',
  });
}

/**
 * A client connected in memory to the loopback server (the 2025 era, which an in-memory pair
 * speaks), after `prepare` ran on it (register handlers before connecting).
 */
export async function inMemoryClient(prepare: (client: Client) => void): Promise<Client> {
  const { InMemoryTransport } = await import('@modelcontextprotocol/client');
  // @ts-expect-error: the fixture is plain JavaScript
  const { buildServer } = await import('../fixtures/loopback-server.mjs');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await buildServer({ era: 'legacy' }).connect(serverSide);
  const client = eraClient('legacy');
  prepare(client);
  await client.connect(clientSide);
  return client;
}

/** Calls the loopback's `ask_form` with `schema` and returns the server's view of the answer. */
export async function askForm(
  client: Client,
  schema: object,
  message = 'Tell me',
): Promise<unknown> {
  const result = await client.callTool({
    name: 'ask_form',
    arguments: { message, schema: JSON.stringify(schema) },
  });
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first?.text ?? 'null');
}

/** Calls the loopback's `ask_url` with `url` and returns the server's view of the answer. */
export async function askUrl(client: Client, url: string): Promise<unknown> {
  const result = await client.callTool({ name: 'ask_url', arguments: { url } });
  return JSON.parse((result.content as { text: string }[])[0]?.text ?? 'null');
}
