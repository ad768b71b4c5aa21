import type { Script } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, withServer } from '../../src/testing.js';
import { approvalOptions } from '../support/approval-options.js';
import {
  approvalServer,
  CWD,
  DIFF,
  EDIT,
  openIn,
  text,
  updatesOf,
} from '../support/approval-server.js';

describe('tool calls and approvals in the editor', () => {
  it('an edit approved once: pending with its diff, the permission request on the same call, then in_progress and completed', async () => {
    const server = approvalServer(EDIT);
    const testClient = createTestClient();
    await withServer(server.options, testClient, async ({ agent, pipe }) => {
      const sessionId = await openIn(agent);
      expect(server.cwds).toEqual([CWD]);
      const response = prompt(agent, sessionId, 'Edit it.');
      const permission = await testClient.permissions.next();
      expect(updatesOf(testClient.updates.of(sessionId).all, 'e1')).toEqual([
        {
          sessionUpdate: 'tool_call',
          toolCallId: 'e1',
          title: `Edit ${CWD}/a.txt`,
          kind: 'edit',
          status: 'pending',
          locations: [{ path: `${CWD}/a.txt`, line: 1 }],
          content: [DIFF],
          rawInput: { path: 'a.txt' },
        },
      ]);
      expect(permission.params).toEqual({
        sessionId,
        toolCall: { toolCallId: 'e1', title: `Edit ${CWD}/a.txt`, kind: 'edit', content: [DIFF] },
        options: approvalOptions('`edit_file`'),
      });
      // Nothing ran while the person was deciding.
      expect(server.runs('edit_file')).toEqual([]);
      permission.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(server.runs('edit_file')).toHaveLength(1);
      expect(updatesOf(testClient.updates.of(sessionId).all, 'e1').slice(1)).toEqual([
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: 'e1',
          status: 'in_progress',
          content: [text('Allowed once by you'), DIFF],
        },
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: 'e1',
          status: 'completed',
          content: [text('Allowed once by you'), DIFF, text(`Edited ${CWD}/a.txt.`)],
          rawOutput: { decidedBy: { kind: 'person', choice: 'allow_once' } },
        },
      ]);
      expect(pipe.wire.requestsToClient('session/request_permission')).toHaveLength(1);
      expect(server.policy.rules).toEqual([]);
    });
  });

  it('an edit rejected: it never runs, and its update says who rejected it', async () => {
    const server = approvalServer(EDIT);
    const testClient = createTestClient();
    await withServer(server.options, testClient, async ({ agent }) => {
      const sessionId = await openIn(agent);
      const response = prompt(agent, sessionId, 'Edit it.');
      (await testClient.permissions.next()).reply({
        outcome: { outcome: 'selected', optionId: 'reject_once' },
      });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(server.runs('edit_file')).toEqual([]);
      const updates = updatesOf(testClient.updates.of(sessionId).all, 'e1');
      expect(updates.map((update) => (update as { status?: string }).status)).toEqual([
        'pending',
        'failed',
      ]);
      expect(updates[1]).toEqual({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'e1',
        status: 'failed',
        content: [text('Rejected by you'), DIFF],
        rawOutput: {
          error: {
            name: 'AgentError',
            code: 'PERMISSION_DENIED',
            message: expect.stringContaining('The person rejected this call'),
          },
          decidedBy: { kind: 'person', choice: 'reject_once' },
        },
      });
    });
  });

  it('an edit always allowed: the rule is kept, and the next edit runs without asking, saying which rule', async () => {
    const twice: Script = {
      steps: [
        { toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'a.txt' } }] },
        { toolCalls: [{ id: 'e2', name: 'edit_file', arguments: { path: 'b.txt' } }] },
        { text: 'Done.' },
      ],
    };
    const server = approvalServer(twice);
    const testClient = createTestClient();
    await withServer(server.options, testClient, async ({ agent }) => {
      const sessionId = await openIn(agent);
      const response = prompt(agent, sessionId, 'Edit both.');
      (await testClient.permissions.next()).reply({
        outcome: { outcome: 'selected', optionId: 'allow_always' },
      });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(testClient.permissions.received).toBe(1);
      expect(server.policy.rules).toEqual([['edit_file:*', 'allow']]);
      expect(server.runs('edit_file')).toHaveLength(2);
      const all = testClient.updates.of(sessionId).all;
      expect(updatesOf(all, 'e1')[1]).toMatchObject({
        status: 'in_progress',
        content: [text('Allowed by you, and from now on by rule `edit_file:*`'), DIFF],
      });
      expect(updatesOf(all, 'e2').slice(1)).toEqual([
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: 'e2',
          status: 'in_progress',
          content: [
            text('Allowed by rule `edit_file:*` (workspace rules)'),
            { ...DIFF, path: `${CWD}/b.txt` },
          ],
        },
        expect.objectContaining({
          status: 'completed',
          rawOutput: {
            decidedBy: { kind: 'rule', rule: 'edit_file:*', source: 'workspace rules' },
          },
        }),
      ]);
    });
  });
});
