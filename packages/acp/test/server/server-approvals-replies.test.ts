import { methods } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, withServer } from '../../src/testing.js';
import { approvalServer, DIFF, EDIT, openIn, text, updatesOf } from '../support/approval-server.js';

describe('tool calls and approvals in the editor', () => {
  it('session/cancel while an approval is pending: the request is withdrawn, the call never runs, and every update comes before the cancelled response', async () => {
    const server = approvalServer(EDIT);
    const testClient = createTestClient();
    await withServer(server.options, testClient, async ({ agent, pipe }) => {
      const sessionId = await openIn(agent);
      const response = prompt(agent, sessionId, 'Edit it.');
      const permission = await testClient.permissions.next();
      await agent.notify(methods.agent.session.cancel, { sessionId });
      expect(await response).toEqual({ stopReason: 'cancelled' });
      // The client was told to stop waiting for the person.
      await pipe.wire.waitFor(
        (entry) =>
          entry.to === 'client' &&
          'method' in entry.message &&
          entry.message.method === '$/cancel_request' &&
          (entry.message.params as { requestId?: unknown }).requestId === permission.requestId,
      );
      expect(server.runs('edit_file')).toEqual([]);
      const updates = updatesOf(testClient.updates.of(sessionId).all, 'e1');
      expect(updates.at(-1)).toMatchObject({
        status: 'failed',
        content: [text('Not run: nobody approved it (ASK_ABORTED)'), DIFF],
        rawOutput: { decidedBy: { kind: 'unanswered', code: 'ASK_ABORTED' } },
      });
      // On the wire, the call's last update precedes the prompt's response.
      const index = (match: (message: Record<string, unknown>) => boolean) =>
        pipe.wire.messages.findIndex(
          (entry) => entry.to === 'client' && match(entry.message as Record<string, unknown>),
        );
      const lastUpdate = index(
        (message) =>
          message.method === 'session/update' &&
          (message.params as { update: { status?: string } }).update.status === 'failed',
      );
      const result = index(
        (message) =>
          (message.result as { stopReason?: string } | undefined)?.stopReason === 'cancelled',
      );
      expect(lastUpdate).toBeGreaterThan(-1);
      expect(result).toBeGreaterThan(lastUpdate);
      // A late answer changes nothing.
      permission.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      expect(server.runs('edit_file')).toEqual([]);
    });
  });

  it('a reply that is not an offered option, or cancelled, denies the call', async () => {
    for (const [reply, code] of [
      [{ outcome: { outcome: 'selected', optionId: 'allow' } }, 'INVALID_ANSWER'],
      [{ outcome: { outcome: 'cancelled' } }, 'ASK_CANCELLED'],
    ] as const) {
      const server = approvalServer(EDIT);
      const testClient = createTestClient();
      await withServer(server.options, testClient, async ({ agent }) => {
        const sessionId = await openIn(agent);
        const response = prompt(agent, sessionId, 'Edit it.');
        (await testClient.permissions.next()).reply(reply);
        expect(await response).toEqual({ stopReason: 'end_turn' });
        expect(server.runs('edit_file')).toEqual([]);
        expect(updatesOf(testClient.updates.of(sessionId).all, 'e1').at(-1)).toMatchObject({
          status: 'failed',
          content: [text(`Not run: nobody approved it (${code})`), DIFF],
        });
      });
    }
  });

  it('a client that approves every request by itself gets the narrowest choice first: allow once, no rule written', async () => {
    const server = approvalServer(EDIT);
    const testClient = createTestClient({ handlesForms: false });
    await withServer(server.options, testClient, async ({ agent }) => {
      const sessionId = await openIn(agent);
      const response = prompt(agent, sessionId, 'Edit it.');
      const permission = await testClient.permissions.next();
      const first = permission.params.options[0];
      expect(first?.kind).toBe('allow_once');
      permission.reply({ outcome: { outcome: 'selected', optionId: first?.optionId ?? '' } });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(server.policy.rules).toEqual([]);
    });
  });
});
