import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import { createScriptedModel, openSessionStore, type Script } from 'dsh-agent';
import { removeTemporaryStateFolders, temporaryStateFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, prompt, WITH_FORMS, withServer } from '../../src/testing.js';
import { describedTools, rememberingPolicy } from '../support/described-tools.js';
import { openEditorSession } from '../support/editor-session.js';

afterEach(removeTemporaryStateFolders);

const CWD = '/work/project';

const SCRIPT: Script = {
  steps: [
    {
      toolCalls: [
        { id: 'e1', name: 'edit_file', arguments: { path: 'a.txt' } },
        { id: 'e2', name: 'edit_file', arguments: { path: 'b.txt', old: null } },
      ],
    },
    { toolCalls: [{ id: 'c1', name: 'run_command', arguments: { command: 'npm test' } }] },
    { text: 'Done.' },
  ],
};

function tool(updates: readonly SessionUpdate[]): SessionUpdate[] {
  return updates.filter(
    (update) => update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update',
  );
}

describe('session/load of a conversation with approvals', () => {
  it('replays each tool call as it was shown live: its diff, who decided (the person, a rule), its output', async () => {
    const dir = temporaryStateFolder();
    const policy = rememberingPolicy();
    const options = () => ({
      model: createScriptedModel(SCRIPT),
      sessionStore: openSessionStore({ dir }),
      toolsFor: (cwd: string) => ({ tools: describedTools(cwd).tools, permissions: policy }),
    });
    const live = createTestClient();
    const sessionId = await withServer(options(), live, async ({ agent }) => {
      const { sessionId: id } = await openEditorSession(agent, { cwd: CWD });
      const response = prompt(agent, id, 'Go.');
      // The first edit always allowed (the second then runs by rule), the command rejected.
      (await live.permissions.next()).reply({
        outcome: { outcome: 'selected', optionId: 'allow_always' },
      });
      (await live.permissions.next()).reply({
        outcome: { outcome: 'selected', optionId: 'reject_once' },
      });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(live.permissions.received).toBe(2);
      return id;
    });
    const shown = tool(live.updates.of(sessionId).all);
    expect(shown.map((update) => (update as { status?: string }).status)).toEqual([
      'pending',
      'in_progress',
      'completed',
      'pending',
      'in_progress',
      'completed',
      'pending',
      'failed',
    ]);
    // The new file's diff has no old text.
    expect(shown[3]).toMatchObject({
      content: [{ type: 'diff', path: `${CWD}/b.txt`, oldText: null, newText: 'new\n' }],
    });

    const restored = createTestClient();
    await withServer(options(), restored, async ({ agent }) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: WITH_FORMS,
      });
      await agent.request(methods.agent.session.load, { sessionId, cwd: CWD, mcpServers: [] });
      const replayed = tool(restored.updates.of(sessionId).all);
      expect(replayed).toEqual(shown);
      expect(replayed[4]).toMatchObject({
        content: [
          { type: 'content', content: { text: 'Allowed by rule `edit_file:*` (workspace rules)' } },
          { type: 'diff' },
        ],
      });
      expect(replayed.at(-1)).toMatchObject({
        status: 'failed',
        rawOutput: { decidedBy: { kind: 'person', choice: 'reject_once' } },
      });
      expect(restored.permissions.received).toBe(0);
    });
  });
});
