import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { serveAcpAgent } from '../../src/server.js';
import {
  createTestClient,
  initializeClient,
  newSession,
  prompt,
  startSession,
  tappedPipe,
} from '../../src/testing.js';

describe('the client going away', () => {
  it('mid-question: the turns end, the sessions are freed and the server is done, with nothing left waiting', async () => {
    const pipe = tappedPipe();
    const server = serveAcpAgent(pipe.agentStream, {
      model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }),
    });
    const testClient = createTestClient();
    const connection = testClient.app.connect(pipe.clientStream);
    const agent = connection.agent;
    await initializeClient(agent);
    const sessions = [await newSession(agent), await newSession(agent)];
    const turns = sessions.map((sessionId) => prompt(agent, sessionId, 'Start.'));
    for (const turn of turns) turn.catch(() => {});
    await testClient.forms.next();
    await testClient.forms.next();
    expect(server.sessions).toBe(2);

    pipe.disconnect();
    await server.done;
    expect(server.connection.signal.aborted).toBe(true);
    expect(server.sessions).toBe(0);
    // Nothing reached the wire after the disconnect.
    const count = pipe.wire.messages.length;
    await new Promise((resolve) => setImmediate(resolve));
    expect(pipe.wire.messages.length).toBe(count);
    connection.close();
  });

  it('server.close() ends the turns and frees the sessions the same way', async () => {
    const pipe = tappedPipe();
    const server = serveAcpAgent(pipe.agentStream, {
      model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }),
    });
    const testClient = createTestClient();
    const connection = testClient.app.connect(pipe.clientStream);
    const sessionId = await startSession(connection.agent);
    const turn = prompt(connection.agent, sessionId, 'Start.');
    turn.catch(() => {});
    await testClient.forms.next();
    server.close();
    await server.done;
    expect(server.sessions).toBe(0);
    // Closing this side does not end the transport: over stdio the process exits next.
    pipe.disconnect();
    connection.close();
  });
});
