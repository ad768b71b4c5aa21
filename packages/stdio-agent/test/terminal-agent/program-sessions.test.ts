import { statSync } from 'node:fs';
import { join } from 'node:path';
import { removeTemporaryStateFolders, temporaryStateFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { refusal } from '../support/bin-process.js';
import { runProgram, runProgramIn } from '../support/program-run.js';

afterEach(removeTemporaryStateFolders);

// The dsh-stdio-agent program in-process, as its bin runs it; saved conversations across
// processes: bin-sessions.test.ts.
describe('saved conversations, against the dsh-stdio-agent program', () => {
  it('refuses the session flags with --no-history, and lists an empty folder', async () => {
    const refused = await runProgram(['--continue', '--no-history']);
    expect(refused).toMatchObject(
      refusal(
        2,
        'dsh-stdio-agent: --continue needs the saved conversations: leave out --no-history (try dsh-stdio-agent --help)\n',
      ),
    );
    const none = await runProgramIn('/', ['--state-dir', temporaryStateFolder(), '--sessions']);
    expect(none).toMatchObject({ code: 0, stdout: 'No saved conversations in /.\n' });
  });

  it('keeps nothing on disk with --no-history', async () => {
    const stateHome = temporaryStateFolder();
    const run = await runProgram(['--no-history'], 'hello\n1\n', { XDG_STATE_HOME: stateHome });
    expect(run.code).toBe(0);
    expect(() => statSync(join(stateHome, 'dsh'))).toThrow();
    const saved = await runProgram([], 'hello\n1\n', { XDG_STATE_HOME: stateHome });
    expect(saved.code).toBe(0);
    expect(statSync(join(stateHome, 'dsh', 'sessions')).isDirectory()).toBe(true);
  });

  it('lists two demos begun alike with when each started', async () => {
    const stateHome = temporaryStateFolder();
    for (let run = 0; run < 2; run++) {
      const demo = await runProgram([], 'hello\n1\n', { XDG_STATE_HOME: stateHome });
      expect(demo.code).toBe(0);
    }
    const listed = await runProgram(['--sessions'], '', { XDG_STATE_HOME: stateHome });
    expect(listed.code).toBe(0);
    const rows = listed.stdout.split('\n').slice(0, 2);
    for (const row of rows) {
      expect(row).toMatch(/ {2}hello \(started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)$/);
    }
  });
});
