import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_MESSAGE_BYTES } from '@agentclientprotocol/sdk';
import { removeWorkFolders, workFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, newSession, prompt } from '../../src/testing.js';
import { openEditorSession } from '../support/editor-session.js';
import { withProgramClient } from '../support/program-client.js';

afterEach(removeWorkFolders);

/** 4 MB of lines dense in control characters, each written as 6 bytes (`\u0001`) in JSON. */
function denseFile(): string {
  const line = `${'\u0001\u0002\u0003'.repeat(33)}\n`;
  const lines = Array.from({ length: 40_000 }, () => line);
  lines[20_000] = 'MARK-OLD\n';
  return lines.join('');
}

describe('an approval over the 32 MiB limit of the SDK client reading it, against the dsh-acp program', () => {
  // Heavy by nature: 8 MB of control characters, sized and cut on their way to a real SDK reader.
  it('is shown cut with a note, never killing the connection', { timeout: 60_000 }, async () => {
    const base = workFolder('dsh-acp-huge-edit-');
    const project = join(base, 'project');
    mkdirSync(project);
    const original = denseFile();
    writeFileSync(join(project, 'big.txt'), original);
    const script = join(base, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        steps: [
          {
            text: 'Editing.',
            toolCalls: [
              {
                id: 'e1',
                name: 'edit_file',
                arguments: { path: 'big.txt', old_text: 'MARK-OLD', new_text: 'MARK-NEW' },
              },
            ],
          },
          { text: 'Done.' },
        ],
      }),
    );
    const testClient = createTestClient();
    await withProgramClient(
      ['--no-history', '--script', script],
      testClient,
      async (agent, program) => {
        const { sessionId } = await openEditorSession(agent, { cwd: project });
        const response = prompt(agent, sessionId, 'Edit it.');
        // Before, this request took 48 MB and the SDK client dropped the connection.
        const permission = await testClient.permissions.next();
        const content = permission.params.toolCall.content ?? [];
        const [note, diff] = content;
        expect(note).toMatchObject({ type: 'content', content: { type: 'text' } });
        const said =
          note?.type === 'content' && note.content.type === 'text' ? note.content.text : '';
        expect(said).toMatch(
          /^This change is too large to show whole \(\d+(\.\d)? MiB as a message, over the 32 MiB limit of an ACP message\)\. Shown from line 19998: /,
        );
        // The diff starts a few lines before the change, which it shows.
        expect(diff).toMatchObject({ type: 'diff', path: join(project, 'big.txt') });
        if (diff?.type !== 'diff') throw new Error('no diff');
        expect(diff.oldText?.split('\n')[3]).toBe('MARK-OLD');
        expect(diff.newText.split('\n')[3]).toBe('MARK-NEW');
        permission.reply({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
        expect(await response).toEqual({ stopReason: 'end_turn' });
        for (const line of program.lines.all) {
          expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(DEFAULT_MAX_MESSAGE_BYTES);
        }
        // The file is as it was, and the same connection still serves a new session.
        expect(readFileSync(join(project, 'big.txt'), 'utf8')).toBe(original);
        expect(await newSession(agent)).toEqual(expect.any(String));
      },
    );
  });
});
