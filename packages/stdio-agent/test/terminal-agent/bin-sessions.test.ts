import { mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  removeTemporaryStateFolders,
  sessionFileLines,
  sessionFilePath,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  hasStackTrace,
  refusal,
  runBin,
  runBinIn,
  startBin,
} from '../support/bin-process.js';

beforeAll(assertBuilt);
afterEach(removeTemporaryStateFolders);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('saved conversations, against the bin', () => {
  it('a kill -9 in the middle of a question loses no answer: --sessions lists it, --continue asks that question again and the turn goes on', async () => {
    const stateDir = temporaryStateFolder();
    const cwd = mkdtempSync(join(stateDir, 'project-'));
    const args = ['--state-dir', stateDir];

    const first = startBin(args, {}, { cwd });
    first.write('plan the shop service\n');
    await first.waitForOutput('Choose 1-4 (Enter: 1): ');
    first.write('2\n');
    await first.waitForOutput('What should the project be called?\nAnswer: ');
    first.kill();
    expect((await first.done).signal).toBe('SIGKILL');

    const listed = await runBinIn(cwd, [...args, '--sessions']);
    expect(listed.code).toBe(0);
    const [line = ''] = listed.stdout.split('\n');
    const id = UUID.exec(line)?.[0] ?? '';
    expect(line).toMatch(
      new RegExp(`^${id}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  plan the shop service$`),
    );
    expect(listed.stdout).toContain('Resume one with --resume ID, or the newest with --continue.');
    expect(statSync(sessionFilePath(stateDir, id)).mode & 0o777).toBe(0o600);

    const resumed = await runBin(
      [...args, '--continue'],
      // The name; the three questions at once (the license takes its default); the hosting.
      'shop\n2\n1\n\n1\n',
      {},
      { cwd },
    );
    expect(resumed.code).toBe(0);
    expect(hasStackTrace(resumed.stderr)).toBe(false);
    expect(resumed.stdout).toMatch(
      new RegExp(
        `^${[
          'Resumed conversation \\(1 turn\\):',
          '> plan the shop service',
          "Hi! I am the dsh demo agent\\. .* Let's plan a small web service together\\.",
          '✔ Language · Go',
          'Noted: Go\\. The next question has no options: type the answer\\.',
          '',
          'The agent stopped while a question waited for you: it is asked again, and the turn goes on\\.',
          '\\? Project name',
          '  What should the project be called\\?',
          'Answer: shop',
          '✔ Project name · shop',
        ].join('\\n')}`,
      ),
    );
    expect(resumed.stdout).toContain(
      '- Project: shop\n- Language: Go\n- Database: SQLite\n- Features: Authentication\n- License: MIT\n- Hosting: containers',
    );
    // One turn, never closed as cancelled; its language asked once, its name twice (posed,
    // killed, posed again), answered once.
    const lines = sessionFileLines(stateDir, id);
    expect(lines.filter((entry) => entry.type === 'turn-end')).toEqual([
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
    expect(lines.filter((entry) => entry.type === 'prompt')).toHaveLength(1);
    const resultsOf = (toolCallId: string) =>
      lines.filter((entry) => entry.type === 'tool-result' && entry.toolCallId === toolCallId);
    expect(resultsOf('language')).toHaveLength(1);
    expect(resultsOf('name')).toEqual([
      expect.objectContaining({ result: expect.objectContaining({ ok: true, output: 'shop' }) }),
    ]);
  });

  it('refuses a conversation another process has open, naming it; and one that is not there', async () => {
    const stateDir = temporaryStateFolder();
    const args = ['--state-dir', stateDir];
    const holder = startBin(args);
    holder.write('hello\n');
    await holder.waitForOutput('Choose 1-4');
    const [info] = (await runBin([...args, '--sessions'])).stdout.match(UUID) ?? [];

    const refused = await runBin([...args, '--resume', info ?? '']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `dsh-stdio-agent: Session ${info} is open in another dsh process (pid ${holder.pid}): close it there first.`,
    );
    holder.end();
    expect((await holder.done).code).toBe(0);

    const missing = await runBin([...args, '--resume', '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b']);
    expect(missing).toMatchObject(
      refusal(
        1,
        'dsh-stdio-agent: There is no saved session 0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b. The saved conversations of this folder: --sessions.\n',
      ),
    );
    const nothing = await runBinIn(mkdtempSync(join(stateDir, 'empty-')), [...args, '--continue']);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(
      /there is no saved conversation in .*empty-\w+ to continue: start one without --continue/,
    );
  });

  it('refuses the session flags with --no-history, and lists an empty folder', async () => {
    const refused = await runBin(['--continue', '--no-history']);
    expect(refused).toMatchObject(
      refusal(
        2,
        'dsh-stdio-agent: --continue needs the saved conversations: leave out --no-history (try dsh-stdio-agent --help)\n',
      ),
    );
    const none = await runBinIn('/', ['--state-dir', temporaryStateFolder(), '--sessions']);
    expect(none).toMatchObject({ code: 0, stdout: 'No saved conversations in /.\n' });
  });

  it('keeps nothing on disk with --no-history', async () => {
    const stateHome = temporaryStateFolder();
    const run = await runBin(['--no-history'], 'hello\n1\n', { XDG_STATE_HOME: stateHome });
    expect(run.code).toBe(0);
    expect(() => statSync(join(stateHome, 'dsh'))).toThrow();
    const saved = await runBin([], 'hello\n1\n', { XDG_STATE_HOME: stateHome });
    expect(saved.code).toBe(0);
    expect(statSync(join(stateHome, 'dsh', 'sessions')).isDirectory()).toBe(true);
  });
});
