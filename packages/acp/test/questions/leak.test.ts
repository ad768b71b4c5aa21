import { getEventListeners } from 'node:events';
import { client, methods, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { createTestAgent } from '../support/test-agent.js';

const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterCollection(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const database = {
  question: 'Which database?',
  options: [
    { label: 'PostgreSQL', value: 'pg' },
    { label: 'SQLite', recommended: true },
  ],
};

type Mode = 'accept' | 'decline' | 'withdraw';

describe('leaks', () => {
  it('asks in a row (answered, declined, withdrawn) leave no listeners and no memory behind', async () => {
    expect(gc, 'run the tests with --expose-gc').toBeTypeOf('function');
    const testAgent = createTestAgent({ questionsAsPermissions: true });
    let mode: Mode = 'accept';
    let formArrived: () => void = () => {};
    // A client that keeps nothing: it answers at once, or, for a withdrawn form, answers the
    // cancel with -32800 as JSON-RPC asks.
    const editor = client().onRequest(methods.client.elicitation.create, async ({ signal }) => {
      formArrived();
      if (mode === 'accept') return { action: 'accept', content: { choice: 'pg' } };
      if (mode === 'decline') return { action: 'decline' };
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      throw RequestError.requestCancelled();
    });
    await editor.connectWith(testAgent.app, async (agent) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { elicitation: { form: {} } },
      });
      testAgent.scopes.set('leak', { sessionId: 'session-leak' });
      const provider = testAgent.provider();
      const connectionSignal = testAgent.connection().signal;
      const turn = new AbortController();
      const listeners = () => ({
        turn: getEventListeners(turn.signal, 'abort').length,
        connection: getEventListeners(connectionSignal, 'abort').length,
      });

      const askOnce = async (round: number) => {
        mode = (['accept', 'decline', 'withdraw'] as const)[round % 3] ?? 'accept';
        if (mode !== 'withdraw') {
          await provider
            .ask({ ...database, agent: { id: 'leak' }, signal: turn.signal })
            .catch(() => {});
          return;
        }
        const withdraw = new AbortController();
        const arrived = new Promise<void>((resolve) => {
          formArrived = resolve;
        });
        const asked = provider.ask({ ...database, agent: { id: 'leak' }, signal: withdraw.signal });
        await arrived;
        withdraw.abort();
        await asked.catch(() => {});
        expect(getEventListeners(withdraw.signal, 'abort')).toHaveLength(0);
      };

      for (let round = 0; round < 600; round++) await askOnce(round);
      const listenersBefore = listeners();
      const heapBefore = heapAfterCollection();
      for (let round = 0; round < 6_000; round++) await askOnce(round);
      const heapAfter = heapAfterCollection();

      expect(listeners()).toEqual(listenersBefore);
      expect(listenersBefore.turn).toBe(0);
      expect(provider.pending).toBe(0);
      // Retaining even 250 bytes per ask would show as 1.5 MB.
      expect(heapAfter - heapBefore).toBeLessThan(1_500_000);
    });
    // 6,600 asks over the SDK's in-memory connection, as many as the bound above needs to see
    // 250 bytes an ask: 4-8 s alone, 19 s at a load of 15 on two cores (over the 20 s default).
  }, 90_000);
});
