import type { ClientCapabilities, ClientContext } from '@agentclientprotocol/sdk';
import { methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import type { AcpAgentServer, AcpAgentServerOptions } from '../server/acp-agent-server.js';
import { serveAcpAgent } from '../server/acp-agent-server.js';
import { type TappedPipe, tappedPipe } from './tapped-pipe.js';
import { type TestClient, WITH_FORMS } from './test-client.js';

/** What a test sees of an in-memory server: the client side, the wire and the server. */
export interface ServerTestContext {
  readonly agent: ClientContext;
  readonly pipe: TappedPipe;
  readonly server: AcpAgentServer;
  /** Lines the server logged. */
  readonly log: string[];
}

/**
 * Serves the agent in memory over a tapped pipe and connects the test client for the length
 * of `op`; then disconnects and waits until the server has finished every turn.
 */
export async function withServer<T>(
  options: AcpAgentServerOptions,
  testClient: TestClient,
  op: (context: ServerTestContext) => Promise<T>,
): Promise<T> {
  const pipe = tappedPipe();
  const log: string[] = [];
  const server = serveAcpAgent(pipe.agentStream, { log: (line) => log.push(line), ...options });
  try {
    return await testClient.app.connectWith(pipe.clientStream, (agent) =>
      op({ agent, pipe, server, log }),
    );
  } finally {
    pipe.disconnect();
    server.close();
    await server.done;
  }
}

/** `initialize` with the given client capabilities (forms by default). */
export async function initializeClient(
  agent: ClientContext,
  capabilities: ClientCapabilities = WITH_FORMS,
) {
  return await agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: capabilities,
    clientInfo: { name: 'dsh-acp-test-client', version: '1.0.0' },
  });
}

/** `session/new` in `/`, with no MCP servers. */
export async function newSession(agent: ClientContext): Promise<string> {
  const { sessionId } = await agent.request(methods.agent.session.new, {
    cwd: '/',
    mcpServers: [],
  });
  return sessionId;
}

/** `initialize` with the given client capabilities (forms by default), then `session/new`. */
export async function startSession(
  agent: ClientContext,
  capabilities: ClientCapabilities = WITH_FORMS,
): Promise<string> {
  await initializeClient(agent, capabilities);
  return await newSession(agent);
}

/** Sends a text prompt; resolves with the prompt response. */
export function prompt(agent: ClientContext, sessionId: string, text: string) {
  return agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text }],
  });
}
