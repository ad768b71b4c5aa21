import { methods } from '@agentclientprotocol/sdk';
import { isUserInteractionError } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import { createTestClient, type HeldElicitations, WITH_FORMS } from '../../src/testing.js';
import { createTestAgent } from '../support/test-agent.js';
import { initialize, withConnection } from '../support/test-client.js';

const SESSIONS = 50;

function questionFor(index: number) {
  return {
    question: `Which colour for project ${index}?`,
    header: `Project ${index}`,
    options: [
      { label: `Red ${index}`, value: `red-${index}` },
      { label: `Blue ${index}`, value: `blue-${index}`, recommended: true },
    ],
  };
}

describe('many sessions at once', () => {
  it(`${SESSIONS} concurrent sessions each get their own question and their own answer`, async () => {
    const testAgent = createTestAgent();
    const testClient = createTestClient();
    await withConnection(testAgent, testClient, async (agent, pipe) => {
      await initialize(agent, WITH_FORMS);
      // Plain requests, not the SDK's ActiveSession helper: that one adds an abort listener per
      // session to the client's connection signal, and Node warns past ten.
      const sessionIds = await Promise.all(
        Array.from({ length: SESSIONS }, async () => {
          const created = await agent.request(methods.agent.session.new, {
            cwd: '/',
            mcpServers: [],
          });
          return created.sessionId;
        }),
      );
      const indexOf = new Map(sessionIds.map((sessionId, index) => [sessionId, index]));
      const turns = sessionIds.map((sessionId, index) =>
        agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: JSON.stringify({ question: questionFor(index) }) }],
        }),
      );

      // Hold every form until all are open, then answer in reverse order.
      const forms: Awaited<ReturnType<HeldElicitations['next']>>[] = [];
      for (let count = 0; count < SESSIONS; count++) forms.push(await testClient.forms.next());
      expect(testAgent.provider().pending).toBe(SESSIONS);
      for (const form of forms.reverse()) {
        const params = form.params as QuestionElicitationRequest;
        const index = indexOf.get(params.sessionId);
        if (index === undefined) throw new Error(`form for an unknown session ${params.sessionId}`);
        expect(params.message).toBe(questionFor(index).question);
        expect(params.requestedSchema.title).toBe(`Project ${index}`);
        // The tool call the form names was announced in that same session.
        const announced = pipe.wire.messages.find(
          (entry) =>
            'method' in entry.message &&
            entry.message.method === methods.client.session.update &&
            (entry.message.params as { update: { toolCallId?: string } }).update.toolCallId ===
              params.toolCallId,
        );
        if (announced === undefined)
          throw new Error(`tool call ${params.toolCallId} was never announced`);
        expect((announced.message as { params: { sessionId: string } }).params.sessionId).toBe(
          params.sessionId,
        );
        // Odd sessions decline, even ones choose red: a crossed wire shows up either way.
        form.reply(
          index % 2 === 1
            ? { action: 'decline' }
            : { action: 'accept', content: { choice: `red-${index}` } },
        );
      }

      const stops = await Promise.all(turns);
      expect(stops.every((stop) => stop.stopReason === 'end_turn')).toBe(true);
      // What each session's client saw: the agent's text in that session only.
      sessionIds.forEach((sessionId, index) => {
        const texts = pipe.wire.messages.flatMap((entry) => {
          if (
            !('method' in entry.message) ||
            entry.message.method !== methods.client.session.update
          )
            return [];
          const params = entry.message.params as {
            sessionId: string;
            update: { sessionUpdate: string; content?: { text?: string } };
          };
          return params.sessionId === sessionId &&
            params.update.sessionUpdate === 'agent_message_chunk'
            ? [params.update.content?.text]
            : [];
        });
        expect(texts).toEqual([index % 2 === 1 ? 'error:ASK_DECLINED' : `answer:red-${index}`]);
      });
      for (const outcome of testAgent.outcomes.all) {
        const index = indexOf.get(outcome.sessionId) ?? -1;
        if (index % 2 === 1) {
          expect('error' in outcome && isUserInteractionError(outcome.error, 'ASK_DECLINED')).toBe(
            true,
          );
        } else {
          expect(outcome).toMatchObject({ answer: { answer: `red-${index}` } });
        }
      }
      expect(testAgent.outcomes.all).toHaveLength(SESSIONS);
      expect(testAgent.provider().pending).toBe(0);
    });
  });
});
