import { type CreateElicitationResponse, methods } from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import type { QuestionsElicitationRequest } from '../../src/index.js';
import {
  cancelRequest,
  createTestClient,
  prompt,
  startSession,
  withServer,
} from '../../src/testing.js';

/** A script that asks three questions at once, then quotes each answer. */
const SET = () => ({
  model: createScriptedModel({
    steps: [
      {
        toolCalls: [
          {
            id: 'set',
            name: 'ask_user_question',
            arguments: {
              questions: [
                {
                  id: 'db',
                  question: 'Which database?',
                  options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }],
                },
                {
                  id: 'extras',
                  question: 'Which extras?',
                  multi_select: true,
                  allow_custom: false,
                  options: [{ label: 'Docs' }, { label: 'Tests' }],
                },
                { id: 'name', question: 'Which name?' },
              ],
            },
          },
        ],
      },
      { text: 'db={{answer:set.db|-}} extras={{answer:set.extras|-}} name={{answer:set.name|-}}' },
    ],
  }),
});

/** Sends `reply` to the one form of the set; resolves with how the tool call ended and the text. */
async function replyToSet(reply: unknown) {
  const testClient = createTestClient();
  return await withServer(SET(), testClient, async ({ agent }) => {
    const sessionId = await startSession(agent);
    const response = prompt(agent, sessionId, 'Start.');
    const form = await testClient.forms.next();
    form.reply(reply as CreateElicitationResponse);
    expect(await response).toEqual({ stopReason: 'end_turn' });
    const { updates } = testClient;
    return {
      form: form.params as QuestionsElicitationRequest,
      end: updates.toolCallUpdates(sessionId)[0],
      result: updates.resultText(sessionId, 'set'),
      text: updates.text(sessionId),
      forms: testClient.forms.received,
    };
  });
}

describe('several questions as one form, over the SDK client', () => {
  it('sends one form for the whole set and maps the reply back to every answer', async () => {
    const { form, end, result, text, forms } = await replyToSet({
      action: 'accept',
      content: { db: 'SQLite', extras: ['Tests', 'Docs'], name: ' shop ' },
    });
    expect(forms).toBe(1);
    expect(Object.keys(form.requestedSchema.properties)).toEqual([
      'db',
      'db:custom',
      'extras',
      'name',
    ]);
    expect(form.requestedSchema.required).toEqual(['extras', 'name']);
    expect(end).toMatchObject({ status: 'completed' });
    expect(JSON.parse(result ?? '')).toEqual({
      db: { chosen: ['SQLite'] },
      extras: { chosen: ['Docs', 'Tests'] },
      name: { typed: 'shop' },
    });
    expect(text).toBe('db=SQLite extras=Docs, Tests name=shop');
  });

  it.each([
    ['a decline', { action: 'decline' }, 'ASK_DECLINED'],
    ['a dismissal', { action: 'cancel' }, 'ASK_CANCELLED'],
    [
      'a question left unanswered',
      { action: 'accept', content: { db: 'SQLite', extras: ['Docs'] } },
      'INVALID_ANSWER',
    ],
    [
      'a value never offered',
      { action: 'accept', content: { db: 'Oracle', extras: ['Docs'], name: 'x' } },
      'INVALID_ANSWER',
    ],
    [
      'ticks where one is not offered',
      { action: 'accept', content: { db: 'SQLite', extras: ['Docs', 'Oracle'], name: 'x' } },
      'INVALID_ANSWER',
    ],
  ])(
    'fails the whole set on %s: no question of it reads as answered',
    async (_name, reply, code) => {
      const { end, text, result } = await replyToSet(reply);
      expect(end).toMatchObject({ status: 'failed', rawOutput: { error: { code } } });
      expect(text).toBe('db=- extras=- name=-');
      expect(result).not.toContain('Oracle');
    },
  );

  it('session/cancel withdraws the one form ($/cancel_request) and ends the turn cancelled', async () => {
    const testClient = createTestClient();
    await withServer(SET(), testClient, async ({ agent, pipe }) => {
      const sessionId = await startSession(agent);
      const response = prompt(agent, sessionId, 'Start.');
      const form = await testClient.forms.next();
      await agent.notify(methods.agent.session.cancel, { sessionId });
      expect(await response).toEqual({ stopReason: 'cancelled' });
      const cancel = await pipe.wire.waitFor(cancelRequest());
      expect(cancel.message).toMatchObject({ params: { requestId: form.requestId } });
      expect(form.signal.aborted).toBe(true);
      expect(testClient.updates.toolCallUpdates(sessionId)).toEqual([
        expect.objectContaining({
          toolCallId: 'set',
          status: 'failed',
          rawOutput: { error: expect.objectContaining({ code: 'TURN_CANCELLED' }) },
        }),
      ]);
    });
  });
});
