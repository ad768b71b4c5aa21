import { methods } from '@agentclientprotocol/sdk';
import { createScriptedModel, type Script } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, withServer } from '../../src/testing.js';
import { approvalServer, CWD, EDIT, openIn, text, updatesOf } from '../support/approval-server.js';

describe('tool calls and approvals in the editor', () => {
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
