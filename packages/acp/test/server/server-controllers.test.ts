import { type CreateElicitationResponse, methods } from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestClient, prompt, startSession, withServer } from '../../src/testing.js';

// Issue 36, item 2: one AbortController per turn, a child only where a scope really differs.
// A prompt whose turn asks one question makes two of ours: the turn's (the session's, which
// the agent uses rather than making a child of it) and the question's request on the wire
// (withdrawn on its own when the question is). The SDK's own controllers (one per incoming
// request) are not counted: only those made by code under `packages/`.

const ONE_QUESTION = () =>
  createScriptedModel({
    steps: [
      {
        toolCalls: [
          {
            id: 'ask',
            name: 'ask_user_question',
            arguments: { question: 'Which database?', options: [{ label: 'SQLite' }] },
          },
        ],
      },
      { text: 'Using {{answer:ask|-}}.' },
    ],
  });

/** Counts the AbortControllers made by our own code (the frame that calls `new`) from now. */
function countOurControllers(): { readonly made: () => number } {
  let made = 0;
  const Original = globalThis.AbortController;
  class Counted extends Original {
    constructor() {
      super();
      const caller = new Error().stack?.split('\n')[2] ?? '';
      if (caller.includes('/packages/') && !caller.includes('node_modules')) made++;
    }
  }
  vi.stubGlobal('AbortController', Counted);
  return { made: () => made };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AbortControllers of a turn', () => {
  it('a prompt whose turn asks one question makes two: the turn and the request of the question', async () => {
    const testClient = createTestClient();
    await withServer({ model: ONE_QUESTION() }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      const counter = countOurControllers();
      const response = prompt(agent, sessionId, 'Start.');
      const form = await testClient.forms.next();
      form.reply({ action: 'accept', content: { choice: 'SQLite' } } as CreateElicitationResponse);
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(testClient.updates.text(sessionId)).toBe('Using SQLite.');
      expect(counter.made()).toBe(2);
    });
  });

  it('a withdrawn question still cancels its request on the wire (session/cancel)', async () => {
    const testClient = createTestClient();
    await withServer({ model: ONE_QUESTION() }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      const response = prompt(agent, sessionId, 'Start.');
      const form = await testClient.forms.next();
      await agent.notify(methods.agent.session.cancel, { sessionId });
      await vi.waitFor(() => expect(form.signal.aborted).toBe(true));
      expect(await response).toEqual({ stopReason: 'cancelled' });
    });
  });
});
