import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import { createScriptedModel, type Script } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, WITH_FORMS, withServer } from '../../src/testing.js';
import { approvalOptions } from '../support/approval-options.js';
import { describedTools, rememberingPolicy } from '../support/described-tools.js';

const CWD = '/work/project';

const EDIT: Script = {
  steps: [
    {
      text: 'Editing.',
      toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'a.txt' } }],
    },
    { text: 'Done.' },
  ],
};

/** A server whose sessions get the described tools and a remembering policy for their cwd. */
function approvalServer(script: Script) {
  const policy = rememberingPolicy();
  const cwds: string[] = [];
  let tools: ReturnType<typeof describedTools> | undefined;
  return {
    policy,
    cwds,
    runs: (name: string) => tools?.runs.get(name) ?? [],
    options: {
      model: createScriptedModel(script),
      toolsFor: async (cwd: string) => {
        cwds.push(cwd);
        tools = describedTools(cwd);
        return { tools: tools.tools, permissions: policy };
      },
    },
  };
}

async function openIn(agent: Parameters<Parameters<typeof withServer>[2]>[0]['agent']) {
  await agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: WITH_FORMS,
  });
  const { sessionId } = await agent.request(methods.agent.session.new, {
    cwd: CWD,
    mcpServers: [],
  });
  return sessionId;
}

/** The updates of one tool call, in order. */
function updatesOf(all: readonly SessionUpdate[], toolCallId: string): SessionUpdate[] {
  return all.filter(
    (update) =>
      (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
      update.toolCallId === toolCallId,
  );
}

const DIFF = { type: 'diff', path: `${CWD}/a.txt`, oldText: 'old\n', newText: 'new\n' };
const text = (line: string) => ({ type: 'content', content: { type: 'text', text: line } });

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

  it('a command approved: execute kind, the command shown, then its output and exit status', async () => {
    const script: Script = {
      steps: [
        { toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'npm test' } }] },
        { text: 'Tests pass.' },
      ],
    };
    const server = approvalServer(script);
    const testClient = createTestClient();
    await withServer(server.options, testClient, async ({ agent }) => {
      const sessionId = await openIn(agent);
      const response = prompt(agent, sessionId, 'Test it.');
      const permission = await testClient.permissions.next();
      const command = text(`\`\`\`sh\nnpm test\n\`\`\`\nin ${CWD}`);
      expect(permission.params.toolCall).toEqual({
        toolCallId: 'c1',
        title: 'Run npm test',
        kind: 'execute',
        content: [command],
      });
      permission.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      const updates = updatesOf(testClient.updates.of(sessionId).all, 'c1');
      expect(updates[0]).toMatchObject({ kind: 'execute', status: 'pending', content: [command] });
      expect(updates.at(-1)).toEqual({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        content: [
          text('Allowed once by you'),
          command,
          text('```\n$ npm test\n3 tests passed\n\n```'),
        ],
        rawOutput: {
          exit: { code: 0, signal: null },
          decidedBy: { kind: 'person', choice: 'allow_once' },
        },
      });
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

  it('toolsFor gives each session the tools of its own cwd; a failing toolsFor fails session/new', async () => {
    const server = approvalServer(EDIT);
    const testClient = createTestClient();
    await withServer(server.options, testClient, async ({ agent }) => {
      await openIn(agent);
      await agent.request(methods.agent.session.new, { cwd: '/elsewhere', mcpServers: [] });
      expect(server.cwds).toEqual([CWD, '/elsewhere']);
    });
    const failing = {
      model: createScriptedModel(EDIT),
      toolsFor: () => {
        throw new Error('no such folder');
      },
    };
    await withServer(failing, createTestClient(), async ({ agent, log, server: running }) => {
      await agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const error = await agent
        .request(methods.agent.session.new, { cwd: CWD, mcpServers: [] })
        .catch((failure: unknown) => failure);
      expect(error).toMatchObject({ code: -32603 });
      expect(running.sessions).toBe(0);
      expect(log.join('\n')).toContain('no such folder');
    });
  });
});
