import { getEventListeners } from 'node:events';
import {
  type AnyMessage,
  client,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type Stream,
} from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { serveAcpAgent } from '../../src/server.js';
import { jsonFixture } from '../support/json-fixture.js';

const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterCollection(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Two connected in-memory streams that, unlike the tapped pipe, keep nothing. */
function memoryPipe(): { agent: Stream; client: Stream } {
  const toAgent = new TransformStream<AnyMessage, AnyMessage>();
  const toClient = new TransformStream<AnyMessage, AnyMessage>();
  return {
    agent: { readable: toAgent.readable, writable: toClient.writable },
    client: { readable: toClient.readable, writable: toAgent.writable },
  };
}

const ONE_QUESTION = jsonFixture('one-question.json');

type Mode = 'answer' | 'decline' | 'cancel';

describe('leaks', () => {
  it('sessions opened, asked (answered, declined, cancelled) and closed leave no listeners and no memory behind', async () => {
    expect(gc, 'run the tests with --expose-gc').toBeTypeOf('function');
    const pipe = memoryPipe();
    const server = serveAcpAgent(pipe.agent, {
      model: createScriptedModel(ONE_QUESTION, { name: 'one-question' }),
    });
    let mode: Mode = 'answer';
    let formArrived: () => void = () => {};
    // An editor that keeps nothing: it answers at once, or waits for the withdrawal.
    const editor = client()
      .onRequest(methods.client.elicitation.create, async ({ signal }) => {
        formArrived();
        if (mode === 'answer') return { action: 'accept', content: { text: 'yes' } };
        if (mode === 'decline') return { action: 'decline' };
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        throw RequestError.requestCancelled();
      })
      .onNotification(methods.client.session.update, () => {});
    await editor.connectWith(pipe.client, async (agent) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { elicitation: { form: {} } },
      });
      const connectionListeners = () => getEventListeners(server.connection.signal, 'abort').length;

      const round = async (index: number) => {
        mode = (['answer', 'decline', 'cancel'] as const)[index % 3] ?? 'answer';
        const { sessionId } = await agent.request(methods.agent.session.new, {
          cwd: '/',
          mcpServers: [],
        });
        const arrived = new Promise<void>((resolve) => {
          formArrived = resolve;
        });
        const response = agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'Ask me.' }],
        });
        if (mode === 'cancel') {
          await arrived;
          await agent.notify(methods.agent.session.cancel, { sessionId });
        }
        const { stopReason } = await response;
        expect(stopReason).toBe(mode === 'cancel' ? 'cancelled' : 'end_turn');
        await agent.request(methods.agent.session.close, { sessionId });
      };

      for (let index = 0; index < 300; index++) await round(index);
      const listenersBefore = connectionListeners();
      const heapBefore = heapAfterCollection();
      for (let index = 0; index < 3_000; index++) await round(index);
      const heapAfter = heapAfterCollection();

      expect(connectionListeners()).toBe(listenersBefore);
      expect(server.sessions).toBe(0);
      // Retaining even 500 bytes per session would show as 1.5 MB.
      expect(heapAfter - heapBefore).toBeLessThan(1_500_000);
    });
    // The in-memory pipe does not carry the client's close to the server: close this side too.
    server.close();
    await server.done;
    // 3,300 sessions: a few seconds alone, several times that on a machine busy with other files.
  }, 90_000);
});
