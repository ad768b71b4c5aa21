import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeScriptFile } from 'dsh-agent/testing';
import { probeSandbox } from 'dsh-tools';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClient, prompt } from '../../src/testing.js';
import { endInput, startBin } from '../support/bin-process.js';
import { openEditorSession } from '../support/editor-session.js';

// The sandbox as an editor meets it: the log and session/new say whether it runs, each tool call
// says how far its command reaches, and leaving the sandbox is a permission request of its own,
// though a rule allows the command. Under /var/tmp, so that the private /tmp hides nothing itself.

const base = mkdtempSync('/var/tmp/dsh-acp-sandbox-');
afterAll(() => rmSync(base, { recursive: true, force: true }));
const available = (await probeSandbox()).available;

describe.skipIf(!available)('the dsh-acp bin with the sandbox', () => {
  it('says so, shows each command’s reach, and asks before a command leaves the sandbox', async () => {
    const workspace = join(base, 'project');
    mkdirSync(workspace);
    const script = writeScriptFile(base, {
      steps: [
        {
          text: 'Trying.',
          toolCalls: [
            { id: 'in', name: 'run_command', arguments: { command: `touch ${base}/in.txt` } },
          ],
        },
        {
          text: 'Leaving.',
          toolCalls: [
            {
              id: 'out',
              name: 'run_command',
              arguments: { command: `touch ${base}/out.txt`, sandbox: 'none' },
            },
          ],
        },
        { text: 'Done.' },
      ],
    });
    const testClient = createTestClient();
    const bin = startBin([
      '--script',
      script,
      '--state-dir',
      join(base, 'state'),
      '--allow',
      'run_command',
    ]);
    try {
      await testClient.app.connectWith(bin.stream, async (agent) => {
        const created = await openEditorSession(agent, { cwd: workspace });
        expect(created._meta).toEqual({
          dsh: { sandbox: expect.stringMatching(/^Sandbox: on \(bubblewrap\)/) },
        });
        const turn = prompt(agent, created.sessionId, 'Go.');
        // The rule allows the first, which runs sandboxed: its write outside fails.
        const asked = await testClient.permissions.next();
        expect(asked.params.toolCall).toMatchObject({ kind: 'execute' });
        expect(JSON.stringify(asked.params.toolCall.content)).toContain('OUTSIDE THE SANDBOX');
        expect(asked.params.options.map((option) => option.name)).toContain(
          `Always run exactly \`touch ${base}/out.txt\` outside the sandbox, with your full powers, in this session`,
        );
        expect(existsSync(join(base, 'in.txt'))).toBe(false);
        asked.reply({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
        expect(await turn).toEqual({ stopReason: 'end_turn' });
        const calls = testClient.updates.toolCalls(created.sessionId);
        expect(calls.map((call) => call._meta)).toEqual([
          { dsh: { sandbox: expect.objectContaining({ confinement: 'sandboxed' }) } },
          { dsh: { sandbox: expect.objectContaining({ confinement: 'none' }) } },
        ]);
        expect(existsSync(join(base, 'out.txt'))).toBe(false);
      });
    } finally {
      await endInput(bin);
    }
    expect(bin.stderr()).toMatch(/^dsh-acp: Sandbox: on \(bubblewrap\)/m);
  }, 60_000);
});
