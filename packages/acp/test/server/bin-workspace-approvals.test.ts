import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { methods } from '@agentclientprotocol/sdk';
import { removeWorkFolders, workFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, prompt, type TestClient } from '../../src/testing.js';
import { approvalOptions } from '../support/approval-options.js';
import { endInput, startBin } from '../support/bin-process.js';
import { openEditorSession } from '../support/editor-session.js';

afterEach(removeWorkFolders);

/** A script that writes a file, then runs a command on it, then ends its turn. */
const SCRIPT = {
  steps: [
    {
      text: 'Writing.',
      toolCalls: [
        { id: 'w', name: 'write_file', arguments: { path: 'notes.txt', content: 'HELLO\n' } },
      ],
    },
    {
      text: 'Checking.',
      toolCalls: [
        {
          id: 'c',
          name: 'run_command',
          arguments: { command: 'cat notes.txt && echo counted $(wc -l < notes.txt)' },
        },
      ],
    },
    { text: 'Done.' },
  ],
};

function lastUpdate(testClient: TestClient, sessionId: string, toolCallId: string) {
  return testClient.updates
    .toolCallUpdates(sessionId)
    .filter((update) => update.toolCallId.startsWith(toolCallId))
    .at(-1);
}

const STDIO_BIN = fileURLToPath(new URL('../../../stdio-agent/dist/bin.js', import.meta.url));

describe('the dsh-acp bin with its workspace tools, over real pipes', () => {
  it('shares one rules file: "always" in the terminal agent decides in the editor, and two sessions see it at once', async () => {
    const folder = workFolder('dsh-acp-shared-rules-');
    const workspace = join(folder, 'project');
    mkdirSync(workspace);
    const stateDir = join(folder, 'state');
    const script = join(folder, 'script.json');
    writeFileSync(script, JSON.stringify(SCRIPT));
    // The terminal agent, on a pipe: "always" for the write (a number is refused on a pipe),
    // then n for the command.
    const terminal = spawnSync(
      process.execPath,
      [STDIO_BIN, '--script', script, '--state-dir', stateDir, '--no-color'],
      {
        cwd: workspace,
        input: 'Go.\nalways\nn\n',
        env: { ...process.env, DEEPSEEK_API_KEY: '', DSH_API_KEY: '' },
        encoding: 'utf8',
      },
    );
    expect(terminal.status).toBe(0);
    expect(terminal.stdout).toContain(
      'allowed: always allow write_file on `notes.txt` in this folder',
    );
    const testClient = createTestClient();
    const bin = startBin(['--script', script, '--state-dir', stateDir]);
    try {
      await testClient.app.connectWith(bin.stream, async (agent) => {
        const { sessionId: first } = await openEditorSession(agent, { cwd: workspace });
        const second = (
          await agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] })
        ).sessionId;
        for (const sessionId of [first, second]) {
          const turn = prompt(agent, sessionId, 'Go.');
          // The write is decided by the terminal's rule: the first request asked is the command's.
          const asked = await testClient.permissions.next();
          expect(asked.params.toolCall).toMatchObject({ kind: 'execute' });
          asked.reply({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
          expect(await turn).toEqual({ stopReason: 'end_turn' });
          expect(JSON.stringify(lastUpdate(testClient, sessionId, 'w')?.content)).toContain(
            'rule `write_file:notes.txt`',
          );
        }
      });
    } finally {
      await endInput(bin);
    }
  }, 60_000);

  it('asks before a write and a command, remembers "always" across a restart, and cancels a pending approval', async () => {
    const folder = workFolder('dsh-acp-workspace-');
    const workspace = join(folder, 'project');
    const stateDir = join(folder, 'state');
    const script = join(folder, 'script.json');
    writeFileSync(script, JSON.stringify(SCRIPT));
    mkdirSync(workspace);
    const file = join(workspace, 'notes.txt');
    const args = ['--script', script, '--state-dir', stateDir];

    const first = createTestClient();
    const bin = startBin(args);
    try {
      await first.app.connectWith(bin.stream, async (agent) => {
        const { sessionId } = await openEditorSession(agent, { cwd: workspace });
        const turn = prompt(agent, sessionId, 'Go.');
        const write = await first.permissions.next();
        expect(write.params.toolCall).toMatchObject({
          kind: 'edit',
          content: [{ type: 'diff', path: file, oldText: null, newText: 'HELLO\n' }],
        });
        expect(write.params.options).toEqual(approvalOptions('write_file on `notes.txt`'));
        expect(() => readFileSync(file)).toThrow();
        write.reply({ outcome: { outcome: 'selected', optionId: 'allow_always' } });
        const command = await first.permissions.next();
        expect(readFileSync(file, 'utf8')).toBe('HELLO\n');
        // A compound command: no one prefix covers it, so "always" is not offered.
        expect(command.params.toolCall).toMatchObject({ kind: 'execute' });
        expect(command.params.options.map((option) => option.optionId)).toEqual([
          'allow_once',
          'reject_once',
        ]);
        command.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
        expect(await turn).toEqual({ stopReason: 'end_turn' });
        const ran = lastUpdate(first, sessionId, 'c');
        expect(ran).toMatchObject({
          status: 'completed',
          rawOutput: { exit: { code: 0, signal: null } },
        });
        expect(JSON.stringify(ran?.content)).toContain('counted 1');

        // The next turn: the write is decided by the rule, the command is rejected and never runs.
        writeFileSync(file, 'changed by the person\n');
        const again = prompt(agent, sessionId, 'Again.');
        const second = await first.permissions.next();
        expect(second.params.toolCall).toMatchObject({ kind: 'execute' });
        expect(readFileSync(file, 'utf8')).toBe('HELLO\n');
        second.reply({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
        expect(await again).toEqual({ stopReason: 'end_turn' });
        expect(JSON.stringify(lastUpdate(first, sessionId, 'w#2')?.content)).toContain(
          'rule `write_file:notes.txt`',
        );
        expect(lastUpdate(first, sessionId, 'c#2')).toMatchObject({ status: 'failed' });
      });
    } finally {
      await endInput(bin);
    }

    // After a restart, the rule still decides the write; a pending approval is cancelled.
    const second = createTestClient();
    const restarted = startBin(args);
    try {
      await second.app.connectWith(restarted.stream, async (agent) => {
        const { sessionId } = await openEditorSession(agent, { cwd: workspace });
        const turn = prompt(agent, sessionId, 'Go.');
        const pending = await second.permissions.next();
        expect(pending.params.toolCall).toMatchObject({ kind: 'execute' });
        await agent.notify(methods.agent.session.cancel, { sessionId });
        expect(await turn).toEqual({ stopReason: 'cancelled' });
        expect(lastUpdate(second, sessionId, 'c')).toMatchObject({ status: 'failed' });
      });
    } finally {
      await endInput(restarted);
    }
  }, 60_000);
});
