import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeWorkFolders, workFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, prompt } from '../../src/testing.js';
import { endInput, startBin } from '../support/bin-process.js';
import { openEditorSession } from '../support/editor-session.js';

const PROGRAM = fileURLToPath(new URL('../fixtures/approval-server.mjs', import.meta.url));

afterEach(removeWorkFolders);

describe('approvals over real pipes (a child process serving the built package with stub tools)', () => {
  it('an edit approved always and a command approved once: the file changes, the output is shown', async () => {
    const folder = workFolder('dsh-acp-approvals-');
    const file = join(folder, 'a.txt');
    writeFileSync(file, 'hello\n');
    const testClient = createTestClient();
    const bin = startBin([], {}, PROGRAM);
    try {
      await testClient.app.connectWith(bin.stream, async (agent) => {
        const { sessionId } = await openEditorSession(agent, { cwd: folder });
        const response = prompt(agent, sessionId, 'Go.');
        const edit = await testClient.permissions.next();
        expect(edit.params.toolCall).toMatchObject({
          toolCallId: 'e1',
          kind: 'edit',
          content: [{ type: 'diff', path: file, oldText: 'hello\n', newText: 'HELLO\n' }],
        });
        expect(edit.params.options.map((option) => option.name)).toEqual([
          'Allow once',
          'Always allow `edit_file` in this folder',
          'Reject',
        ]);
        // Not written before the person decides.
        expect(readFileSync(file, 'utf8')).toBe('hello\n');
        edit.reply({ outcome: { outcome: 'selected', optionId: 'allow_always' } });
        const command = await testClient.permissions.next();
        expect(readFileSync(file, 'utf8')).toBe('HELLO\n');
        expect(command.params.toolCall).toMatchObject({ toolCallId: 'c1', kind: 'execute' });
        command.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
        expect(await response).toEqual({ stopReason: 'end_turn' });
        const end = testClient.updates
          .toolCallUpdates(sessionId)
          .filter((update) => update.toolCallId === 'c1')
          .at(-1);
        expect(end).toMatchObject({
          status: 'completed',
          rawOutput: { exit: { code: 0, signal: null } },
        });
        expect(JSON.stringify(end?.content)).toContain('ok 1 - adds');
      });
    } catch (error) {
      bin.child.kill();
      throw new Error(`the client failed; stderr:\n${bin.stderr()}`, { cause: error });
    }
    expect(await endInput(bin)).toEqual({ code: 0, signal: null });
  });
});
