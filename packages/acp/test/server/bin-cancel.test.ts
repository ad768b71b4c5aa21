import { methods, RequestError } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, startSession } from '../../src/testing.js';
import { withBinClient } from '../support/bin-client.js';
import { fixture, hasStackTrace, jsonRpcLine, startBin } from '../support/bin-process.js';
import { cancelWhileFormPending } from '../support/server-harness.js';

/** Generous for a child process; an agent that waited for the client's reply would never meet it. */
const PROMPTLY_MS = 2_000;

describe('cancel and disconnect, against the bin', () => {
  it('session/cancel while a form is pending: the client sees $/cancel_request and the turn ends cancelled, with no reply ever sent', async () => {
    const testClient = createTestClient();
    await withBinClient([], testClient, async (agent) => {
      const { sessionId, form } = await cancelWhileFormPending(agent, testClient, PROMPTLY_MS);

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
    await withBinClient(
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

  it.each([
    ['its stdin ends', 'stdin'],
    ['its stdout breaks, and the next write fails', 'stdout'],
  ] as const)(
    'the client disconnecting mid-question (%s): the agent exits 0 promptly, without a stack trace',
    async (_, broken) => {
      const bin = startBin();
      const testClient = createTestClient();
      const connection = testClient.app.connect(bin.stream);
      const sessionId = await startSession(connection.agent);
      prompt(connection.agent, sessionId, 'Start.').catch(() => {});
      await testClient.forms.next();

      const started = performance.now();
      if (broken === 'stdin') {
        bin.child.stdin.end();
      } else {
        bin.child.stdout.destroy();
        // Withdrawing the form makes the agent write to the broken pipe; its stdin stays open.
        await connection.agent.notify(methods.agent.session.cancel, { sessionId });
      }
      expect(await bin.exited).toEqual({ code: 0, signal: null });
      expect(performance.now() - started).toBeLessThan(PROMPTLY_MS);
      expect(hasStackTrace(bin.stderr()), bin.stderr()).toBe(false);
      for (const line of bin.lines.all) jsonRpcLine(line);
      connection.close();
    },
  );
});
