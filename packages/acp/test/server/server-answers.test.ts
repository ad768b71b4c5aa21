import type { CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { REQUEST_LIMITS } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, startSession, withServer } from '../../src/testing.js';

const demo = () => ({ model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }) });

/** Runs the demo's first question with `reply` (sent as is, malformed or not), then declines the rest. */
async function firstAnswer(reply: unknown) {
  const testClient = createTestClient();
  return await withServer(demo(), testClient, async ({ agent }) => {
    const sessionId = await startSession(agent);
    const response = prompt(agent, sessionId, 'Start.');
    (await testClient.forms.next()).reply(reply as CreateElicitationResponse);
    for (let i = 0; i < 3; i++) (await testClient.forms.next()).reply({ action: 'decline' });
    const { updates } = testClient;
    return {
      response: await response,
      end: updates.toolCallUpdates(sessionId).find((update) => update.toolCallId === 'language'),
      result: updates.resultText(sessionId, 'language'),
      text: updates.text(sessionId),
    };
  });
}

describe('answers that are not an answer', () => {
  it('decline: the tool call fails with ASK_DECLINED and the turn goes on without the answer', async () => {
    const { response, end, result, text } = await firstAnswer({ action: 'decline' });
    expect(response.stopReason).toBe('end_turn');
    expect(end).toMatchObject({
      status: 'failed',
      rawOutput: { error: { code: 'ASK_DECLINED', name: 'UserInteractionError' } },
    });
    expect(result).toBe('The person chose not to answer the question. (ASK_DECLINED)');
    expect(text).toContain('Noted: no language for now.');
    expect(text).toContain('- Language: (not chosen)');
  });

  it('cancel (the form dismissed): ASK_CANCELLED, told apart from a decline', async () => {
    const { response, end, result } = await firstAnswer({ action: 'cancel' });
    expect(response.stopReason).toBe('end_turn');
    expect(end).toMatchObject({
      status: 'failed',
      rawOutput: { error: { code: 'ASK_CANCELLED' } },
    });
    expect(result).toMatch(/dismissed the question.*\(ASK_CANCELLED\)$/);
  });

  it.each([
    ['a choice that was never offered', { choice: 'COBOL' }],
    ['a choice of the wrong type', { choice: 3 }],
    ['a field the form does not have', { choice: 'Go', text: 'Zig' }],
    ['no choice at all', {}],
  ])('an accept with %s: the tool call fails with INVALID_ANSWER', async (_, content) => {
    const { response, end, result } = await firstAnswer({ action: 'accept', content });
    expect(response.stopReason).toBe('end_turn');
    expect(end).toMatchObject({
      status: 'failed',
      rawOutput: { error: { code: 'INVALID_ANSWER' } },
    });
    expect(result).toMatch(/does not fit the question.*\(INVALID_ANSWER\)$/);
    // The message never repeats what the client sent.
    expect(result).not.toContain('COBOL');
    expect(result).not.toContain('Zig');
  });
});

describe('a long typed answer', () => {
  const askName = () => ({
    model: createScriptedModel({
      steps: [
        {
          toolCalls: [
            { id: 'name', name: 'ask_user_question', arguments: { question: 'Project name?' } },
          ],
        },
        { text: 'Done.' },
      ],
    }),
  });

  async function typed(answer: string) {
    const testClient = createTestClient();
    return await withServer(askName(), testClient, async ({ agent, pipe }) => {
      const sessionId = await startSession(agent);
      const response = prompt(agent, sessionId, 'Start.');
      const form = await testClient.forms.next();
      form.reply({ action: 'accept', content: { text: answer } });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      const update = pipe.wire.messages
        .map((entry) => entry.message)
        .find(
          (message) =>
            'method' in message &&
            message.method === 'session/update' &&
            (message.params as { update: { sessionUpdate: string } }).update.sessionUpdate ===
              'tool_call_update',
        );
      return { form, update, end: testClient.updates.toolCallUpdates(sessionId)[0] };
    });
  }

  it(`is sent to the client once: up to ${REQUEST_LIMITS.answerLength} characters, the update stays about as long as the answer`, async () => {
    const answer = 'n'.repeat(REQUEST_LIMITS.answerLength);
    const { form, update, end } = await typed(answer);
    expect(form.params).toMatchObject({
      requestedSchema: {
        properties: {
          text: {
            maxLength: REQUEST_LIMITS.answerLength,
          },
        },
      },
    });
    expect(end).toMatchObject({ status: 'completed' });
    const line = JSON.stringify(update);
    expect(line.split(answer)).toHaveLength(2);
    expect(line.length).toBeLessThan(answer.length + 1_000);
  });

  it('longer than the form allows is INVALID_ANSWER, never sent back', async () => {
    const answer = 'n'.repeat(REQUEST_LIMITS.answerLength + 1);
    const { update, end } = await typed(answer);
    expect(end).toMatchObject({
      status: 'failed',
      rawOutput: { error: { code: 'INVALID_ANSWER' } },
    });
    expect(JSON.stringify(update).length).toBeLessThan(1_000);
  });
});
