import type { ClientCapabilities, ClientContext } from '@agentclientprotocol/sdk';
import { methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { expect } from 'vitest';
import { type AcpAgentServer, type AcpAgentServerOptions, serveAcpAgent } from '../../src/index.js';
import { type TappedPipe, tappedPipe } from './tapped-pipe.js';
import { type HeldElicitations, type TestClient, WITH_FORMS } from './test-client.js';

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

/**
 * Starts a session and a turn whose first step shows a form, sends `session/cancel` while the
 * form is pending (the client never replies) and checks the turn ends `cancelled` within
 * `withinMs`; resolves with the session and the withdrawn form.
 */
export async function cancelWhileFormPending(
  agent: ClientContext,
  testClient: TestClient,
  withinMs: number,
): Promise<{ sessionId: string; form: Awaited<ReturnType<HeldElicitations['next']>> }> {
  const sessionId = await startSession(agent);
  const response = prompt(agent, sessionId, 'Start.');
  const form = await testClient.forms.next();
  const started = performance.now();
  await agent.notify(methods.agent.session.cancel, { sessionId });
  expect(await response).toEqual({ stopReason: 'cancelled' });
  expect(performance.now() - started).toBeLessThan(withinMs);
  return { sessionId, form };
}
