import { RequestError } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, startSession } from '../../src/testing.js';
import { fixture } from '../support/bin-process.js';
import { withProgramClient } from '../support/program-client.js';
import { cancelWhileFormPending } from '../support/server-harness.js';

// bin-cancel.test.ts ends the bin's stdin and breaks its stdout mid-question: how the process exits.

describe('cancel and time limits, against the dsh-acp program', () => {
  it('session/cancel while a form is pending: the client sees $/cancel_request and the turn ends cancelled, with no reply ever sent', async () => {
    const testClient = createTestClient();
    await withProgramClient([], testClient, async (agent) => {
      const { sessionId, form } = await cancelWhileFormPending(agent, testClient);

      expect(await testClient.notifications.next()).toEqual({
        method: '$/cancel_request',
        params: { requestId: form.requestId },
      });
      expect(form.signal.reason).toBeInstanceOf(RequestError);
      expect(form.signal.reason).toMatchObject({ code: -32800 });
      expect(testClient.updates.toolCallUpdates(sessionId)).toEqual([
        expect.objectContaining({ toolCallId: 'language', status: 'failed' }),
      ]);
    });
  });

  it('a question time limit (--timeout) withdraws the form and the model gets ASK_TIMEOUT', async () => {
    const testClient = createTestClient();
    await withProgramClient(
      ['--script', fixture('one-question.json'), '--timeout', '50ms'],
      testClient,
      async (agent) => {
        const sessionId = await startSession(agent);
        const response = prompt(agent, sessionId, 'Ask me.');
        const form = await testClient.forms.next();
        expect(await response).toEqual({ stopReason: 'end_turn' });
        expect(form.signal.aborted).toBe(true);
        expect(testClient.updates.toolCallUpdates(sessionId)[0]).toMatchObject({
          status: 'failed',
          rawOutput: { error: { code: 'ASK_TIMEOUT' } },
        });
        expect(testClient.updates.text(sessionId)).toBe('One question.You said nothing.');
      },
    );
  });
});
