import { describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import { createTestClient, initializeClient, newSession, prompt } from '../../src/testing.js';
import { fixture } from '../support/bin-process.js';
import { withProgramClient } from '../support/program-client.js';

const SESSIONS = 50;

const sessionOf = (params: unknown) => (params as QuestionElicitationRequest).sessionId;

describe('many sessions, against the dsh-acp program', () => {
  it(`${SESSIONS} concurrent sessions each answer their own question, with no crosstalk`, async () => {
    const testClient = createTestClient();
    await withProgramClient(
      ['--script', fixture('one-question.json')],
      testClient,
      async (agent) => {
        await initializeClient(agent);
        const sessionIds = await Promise.all(
          Array.from({ length: SESSIONS }, () => newSession(agent)),
        );
        const responses = sessionIds.map((sessionId) => prompt(agent, sessionId, 'Ask me.'));
        const forms = [];
        for (let i = 0; i < SESSIONS; i++) forms.push(await testClient.forms.next());
        expect(new Set(forms.map((form) => sessionOf(form.params)))).toEqual(new Set(sessionIds));
        // Answered in an order unrelated to the asking order.
        forms.sort((a, b) => sessionOf(a.params).localeCompare(sessionOf(b.params)));
        for (const form of forms) {
          const { sessionId, toolCallId } = form.params as QuestionElicitationRequest;
          expect(toolCallId).toBe('token');
          form.reply({ action: 'accept', content: { text: `answer for ${sessionId}` } });
        }
        expect(await Promise.all(responses)).toEqual(
          sessionIds.map(() => ({ stopReason: 'end_turn' })),
        );
        for (const sessionId of sessionIds) {
          expect(testClient.updates.text(sessionId)).toBe(
            `One question.You said answer for ${sessionId}.`,
          );
        }
      },
    );
  });
});
