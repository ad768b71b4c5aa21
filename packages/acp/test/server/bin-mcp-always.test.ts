import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { removeWorkFolders, workFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, prompt, type TestClient } from '../../src/testing.js';
import { endInput, startBin } from '../support/bin-process.js';
import { openEditorSession } from '../support/editor-session.js';
import { loopbackMcpServer } from '../support/mcp-loopback.js';

afterEach(removeWorkFolders);

const SCRIPT = {
  steps: [
    {
      text: 'Echoing.',
      toolCalls: [{ id: 'e', name: 'mcp__loop__echo', arguments: { text: 'hi' } }],
    },
    { text: 'Done.' },
  ],
};

/** The loopback MCP server, its `echo` describing itself with `description`. */
function loop(description: string): McpServer {
  return loopbackMcpServer([{ name: 'LOOPBACK_ECHO_DESCRIPTION', value: description }]);
}

function ranOk(testClient: TestClient, sessionId: string): boolean {
  return (
    testClient.updates
      .toolCallUpdates(sessionId)
      .filter((update) => update.toolCallId === 'e')
      .at(-1)?.status === 'completed'
  );
}

describe('the dsh-acp bin: "always" for an MCP tool', () => {
  it('is kept in the workspace rules file across a restart, and asks again, saying what changed, once the server changes the tool', async () => {
    const folder = workFolder('dsh-acp-mcp-always-');
    const workspace = join(folder, 'project');
    mkdirSync(workspace);
    const script = join(folder, 'script.json');
    writeFileSync(script, JSON.stringify(SCRIPT));
    const args = ['--script', script, '--state-dir', join(folder, 'state')];

    /** One bin run: a session with the server, one turn; `answer` answers its approval, if asked. */
    async function run(description: string, answer: (options: string[]) => string | undefined) {
      const testClient = createTestClient();
      const bin = startBin(args);
      const asked: string[][] = [];
      try {
        await testClient.app.connectWith(bin.stream, async (agent) => {
          const { sessionId } = await openEditorSession(agent, {
            cwd: workspace,
            mcpServers: [loop(description)],
          });
          const turn = prompt(agent, sessionId, 'Go.');
          const settled = await Promise.race([
            turn.then(() => 'ended' as const),
            testClient.permissions.next(),
          ]);
          if (settled !== 'ended') {
            const names = settled.params.options.map(
              (option) => `${option.optionId}: ${option.name}`,
            );
            asked.push(names);
            const optionId = answer(names) ?? 'reject_once';
            settled.reply({ outcome: { outcome: 'selected', optionId } });
          }
          expect(await turn).toEqual({ stopReason: 'end_turn' });
          asked.push([ranOk(testClient, sessionId) ? 'ran' : 'did not run']);
        });
      } finally {
        await endInput(bin);
      }
      return asked;
    }

    const first = await run('Returns its text.', () => 'allow_always');
    expect(first[0]).toContainEqual(
      'allow_always: Always allow `echo` of the MCP server loop while it stays as it is now',
    );
    expect(first.at(-1)).toEqual(['ran']);
    // A new agent process, the same state folder: the rule decides, nobody is asked.
    expect(await run('Returns its text.', () => undefined)).toEqual([['ran']]);
    // The server changed the tool: asked again, told what changed.
    const third = await run('Returns its text, and mails it.', () => 'reject_once');
    expect(third[0]).toContainEqual(
      'allow_always: Always allow `echo` of the MCP server loop as it is now (it changed since you allowed it: description "Returns its text." → "Returns its text, and mails it.")',
    );
    expect(third.at(-1)).toEqual(['did not run']);
  }, 90_000);
});
