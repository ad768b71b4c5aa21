import {
  type ClientCapabilities,
  type ClientContext,
  methods,
  PROTOCOL_VERSION,
} from '@agentclientprotocol/sdk';
import { type TappedPipe, type TestClient, tappedPipe } from '../../src/testing.js';
import type { TestAgent, TurnScript } from './test-agent.js';

/** Initializes the connection with `capabilities`. */
export async function initialize(agent: ClientContext, capabilities: ClientCapabilities) {
  await agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: capabilities,
  });
}

/** Opens a session and sends one turn; resolves with the session id and the turn's response. */
export async function startTurn(agent: ClientContext, script: TurnScript) {
  const { sessionId } = await agent.request(methods.agent.session.new, {
    cwd: '/',
    mcpServers: [],
  });
  const response = agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: JSON.stringify(script) }],
  });
  return { sessionId, response };
}

/** Connects the test client to the test agent over a tapped in-memory pipe for the length of `op`. */
export async function withConnection<T>(
  testAgent: TestAgent,
  testClient: TestClient,
  op: (agent: ClientContext, pipe: TappedPipe) => Promise<T>,
): Promise<T> {
  const pipe = tappedPipe();
  const connection = testAgent.app.connect(pipe.agentStream);
  try {
    return await testClient.app.connectWith(pipe.clientStream, (agent) => op(agent, pipe));
  } finally {
    pipe.disconnect();
    connection.close();
  }
}
