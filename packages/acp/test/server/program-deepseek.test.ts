import { STAND_IN_QUESTION, startDeepSeekStandIn } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import { createTestClient, prompt, startSession } from '../../src/testing.js';
import { withProgramClient } from '../support/program-client.js';

describe('dsh-acp against a stand-in for DeepSeek', () => {
  for (const thinking of ['on', 'off'] as const) {
    it(`runs a full turn with a question and its answer, thinking ${thinking}`, async () => {
      const server = await startDeepSeekStandIn();
      try {
        const args = ['--base-url', server.url, '--model', 'deepseek-flash'];
        if (thinking === 'off') args.push('--thinking', 'off');
        const testClient = createTestClient();
        await withProgramClient(
          args,
          testClient,
          async (agent) => {
            const sessionId = await startSession(agent);
            const response = prompt(agent, sessionId, 'Paint the fence');
            const form = await testClient.forms.next();
            expect((form.params as QuestionElicitationRequest).message).toBe(
              STAND_IN_QUESTION.question,
            );
            form.reply({ action: 'accept', content: { choice: 'Blue' } });
            expect(await response).toEqual({ stopReason: 'end_turn' });
            expect(testClient.updates.text(sessionId)).toBe(
              'Let me ask first.Painting the fence Blue.',
            );
            const thoughts = testClient.updates.thoughts(sessionId);
            if (thinking === 'on') {
              // Streamed as thoughts, which editors show collapsed; never as the answer.
              expect(thoughts).toContain('I need the colour. I will ask.');
              expect(thoughts).toContain('The person answered "Blue"');
            } else {
              expect(thoughts).toBe('');
            }
          },
          { DSH_API_KEY: server.apiKey },
        );
        expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
        if (thinking === 'off') {
          expect(server.requests[1]?.body.thinking).toEqual({ type: 'disabled' });
        }
      } finally {
        await server.close();
      }
    });
  }
});
