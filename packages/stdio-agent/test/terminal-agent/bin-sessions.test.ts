import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sessionFileLines, sessionFilePath, temporaryStateFolder } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { BIN, hasStackTrace, refusal, startBin } from '../support/bin-process.js';
import { setUpBinTerminalTests } from '../support/bin-terminal-tests.js';
import { runProgram, runProgramIn } from '../support/program-run.js';
import { startPtySession } from '../support/pty-session.js';

setUpBinTerminalTests();

// The processes killed with -9, held open or in a real terminal are the bin's; the runs that list,
// refuse or go on from what they left run the program in-process, as do the flags alone
// (program-sessions.test.ts).

/**
 * A bin started in a new project folder with its own state folder, asked to plan a service:
 * it waits at the plan's first question.
 */
async function atTheFirstQuestion() {
  const stateDir = temporaryStateFolder();
  const cwd = mkdtempSync(join(stateDir, 'project-'));
  const args = ['--state-dir', stateDir];
  const first = startBin(args, {}, { cwd });
  first.write('plan the shop service\n');
  await first.waitForOutput('Choose 1-4 (Enter: 1): ');
  return { stateDir, cwd, args, first };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('saved conversations, against the bin', () => {
  it('a kill -9 in the middle of a question loses no answer: --sessions lists it, --continue asks that question again and the turn goes on', async () => {
    const { stateDir, cwd, args, first } = await atTheFirstQuestion();
    first.write('2\n');
    await first.waitForOutput('What should the project be called?\nAnswer: ');
    first.kill();
    expect((await first.done).signal).toBe('SIGKILL');

    const listed = await runProgramIn(cwd, [...args, '--sessions']);
    expect(listed.code).toBe(0);
    const [line = ''] = listed.stdout.split('\n');
    const id = UUID.exec(line)?.[0] ?? '';
    expect(line).toMatch(
      new RegExp(`^${id}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  plan the shop service$`),
    );
    expect(listed.stdout).toContain('Resume one with --resume ID, or the newest with --continue.');
    expect(statSync(sessionFilePath(stateDir, id)).mode & 0o777).toBe(0o600);

    // On a terminal (plain mode: line by line), the question comes again and the turn goes on.
    const resumed = startPtySession(`node '${BIN}' --state-dir '${stateDir}' --plain --continue`, {
      columns: 120,
      rows: 40,
      scrollback: 500,
      cwd,
    });
    await resumed.waitFor(/\nAnswer \(Ctrl\+D: decline\):$/);
    resumed.write('shop\r');
    // The three questions at once (the license takes its default); the hosting.
    await resumed.waitFor('Choose 1-3 or type your own answer (Ctrl+D: decline all):');
    resumed.write('2\r1\r\r');
    await resumed.waitFor(/Where will shop run\?[\s\S]*Choose 1-3 \(Ctrl\+D: decline\):$/);
    resumed.write('1\r');
    await resumed.waitFor(/That is the plan\.[^\n]*\n(.*\n)*>$/);
    resumed.write('\u0004');
    const screen = await resumed.waitFor(/\ndone$/);
    expect(screen).toContain('exit=0');
    expect(hasStackTrace(screen)).toBe(false);
    expect(screen).toMatch(
      new RegExp(
        [
          'Resumed conversation \\(1 turn\\):',
          '> plan the shop service',
          "Hi! I am the dsh demo agent\\. [\\s\\S]* Let's plan a small web service together\\.",
          '✔ Language · Go',
          'Noted: Go\\. The next question has no options: type the answer\\.',
          '',
          'The agent stopped while a question waited for you: it is asked again, and the turn goes on\\.',
          '\\? Project name',
          '  What should the project be called\\?',
          'Answer \\(Ctrl\\+D: decline\\): shop',
          '✔ Project name · shop',
        ].join('\\n'),
      ),
    );
    expect(screen).toContain(
      '- Project: shop\n- Language: Go\n- Database: SQLite\n- Features: Authentication\n- License: MIT\n- Hosting: containers',
    );
    await resumed.finish();
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

  it('with piped input, --continue answers no question from before: the first line is a message', async () => {
    const { stateDir, cwd, args, first } = await atTheFirstQuestion();
    first.kill();
    await first.done;

    // Whoever wrote this input never saw the question: "go on" is a message, never its answer.
    const piped = await runProgram([...args, '--continue'], 'go on\n', {}, { cwd });
    expect(piped.code, `${piped.stderr}${piped.stdout}`).toBe(0);
    expect(piped.stdout).toContain(
      '⊘ The agent stopped before this turn ended. Type your next message to go on.\n\n> go on\n',
    );
    expect(piped.stdout).not.toContain('it is asked again');
    const id = UUID.exec((await runProgramIn(cwd, [...args, '--sessions'])).stdout)?.[0] ?? '';
    const lines = sessionFileLines(stateDir, id);
    expect(lines.filter((entry) => entry.type === 'prompt').map((entry) => entry.text)).toEqual([
      'plan the shop service',
      'go on',
    ]);
    expect(lines.find((entry) => entry.type === 'turn-end')).toEqual({
      v: 1,
      type: 'turn-end',
      reason: 'cancelled',
      interrupted: true,
    });
  });

  it('a kill -9 while three questions or an approval wait: each is asked again, and the command runs once, after its approval', async () => {
    const stateDir = temporaryStateFolder();
    const cwd = mkdtempSync(join(stateDir, 'project-'));
    const args = ['--state-dir', stateDir];
    const BATCH_PROMPT = 'Choose 1-3 or type your own answer: ';

    const first = startBin(args, {}, { cwd });
    first.write('hello\n2\nmy-app\n');
    await first.waitForOutput(BATCH_PROMPT);
    first.kill();
    await first.done;

    // On a terminal: the three questions at once are asked again, as one set; then the
    // hosting; the turn ends. The next turn's command waits for its approval when killed.
    const command = `node '${BIN}' --state-dir '${stateDir}' --plain --continue`;
    const terminal = { columns: 120, rows: 40, scrollback: 800, cwd };
    const second = startPtySession(command, terminal);
    await second.waitFor(
      /Question 1 of 3\n\? Database[\s\S]*Choose 1-3 or type your own answer \(Ctrl\+D: decline all\):$/,
    );
    second.write('2\r1\r\r');
    await second.waitFor(/Choose 1-3 \(Ctrl\+D: decline\):$/);
    second.write('1\r');
    await second.waitFor(/That is the plan\.[^\n]*\n(.*\n)*>$/);
    second.write('write it\r');
    await second.waitFor(/Overwrite PLAN\.md[\s\S]*Allow\? y, n or 1-4:$/);
    second.write('y\r');
    await second.waitFor(/\$ wc -l PLAN\.md[\s\S]*Allow\? y, n or 1-4:$/);
    const shownBeforeKill = await second.text();
    expect(shownBeforeKill).toContain('✔ Overwrite PLAN.md · allowed once');
    // kill -9 the program, not the shell around it (which then prints its status): its pid is
    // in the lock it holds on the session.
    const sessions = join(stateDir, 'sessions');
    const lock = readdirSync(sessions).find((name) => name.endsWith('.lock')) ?? '';
    const { pid } = JSON.parse(readFileSync(join(sessions, lock), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGKILL');
    await second.waitFor('exit=137');

    const third = startPtySession(command, terminal);
    await third.waitFor(
      'The agent stopped while an approval waited for you: it is asked again, and the turn goes on.\n? Allow this? Run wc -l PLAN.md',
    );
    await third.waitFor(/Allow\? y, n or 1-4:$/);
    third.write('y\r');
    await third.waitFor(/\n>$/);
    third.write('\u0004');
    const screen = await third.waitFor(/\ndone$/);
    expect(screen).toContain('exit=0');
    expect(screen.match(/✔ Run wc -l PLAN\.md/g)).toHaveLength(1);
    await third.finish();

    const id = UUID.exec((await runProgramIn(cwd, [...args, '--sessions'])).stdout)?.[0] ?? '';
    const lines = sessionFileLines(stateDir, id);
    expect(lines.filter((entry) => entry.type === 'turn-end')).toEqual([
      { v: 1, type: 'turn-end', reason: 'finished' },
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
    const of = (type: string, toolCallId: string) =>
      lines.filter((entry) => entry.type === type && entry.toolCallId === toolCallId);
    // The set was posed twice and answered once, with every answer given after the restart.
    expect(of('posed', 'stack')).toHaveLength(2);
    expect(of('tool-result', 'stack')).toEqual([
      expect.objectContaining({ result: expect.objectContaining({ ok: true }) }),
    ]);
    expect(JSON.stringify(of('tool-result', 'stack'))).toContain('SQLite');
    // The command: posed twice, approved once, run once.
    expect(of('posed', 'check-plan')).toHaveLength(2);
    expect(of('approval', 'check-plan')).toEqual([
      expect.objectContaining({ outcome: expect.objectContaining({ allowed: true }) }),
    ]);
    expect(of('tool-result', 'check-plan')).toEqual([
      expect.objectContaining({ result: expect.objectContaining({ ok: true }) }),
    ]);
  });

  it('refuses a conversation another process has open, naming it; and one that is not there', async () => {
    const stateDir = temporaryStateFolder();
    const args = ['--state-dir', stateDir];
    const holder = startBin(args);
    holder.write('hello\n');
    await holder.waitForOutput('Choose 1-4');
    const [info] = (await runProgram([...args, '--sessions'])).stdout.match(UUID) ?? [];

    const refused = await runProgram([...args, '--resume', info ?? '']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `dsh-stdio-agent: Session ${info} is open in another dsh process (pid ${holder.pid}): close it there first.`,
    );
    holder.end();
    expect((await holder.done).code).toBe(0);

    const missing = await runProgram([...args, '--resume', '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b']);
    expect(missing).toMatchObject(
      refusal(
        1,
        'dsh-stdio-agent: There is no saved session 0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b. The saved conversations of this folder: --sessions.\n',
      ),
    );
    const nothing = await runProgramIn(mkdtempSync(join(stateDir, 'empty-')), [
      ...args,
      '--continue',
    ]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(
      /there is no saved conversation in .*empty-\w+ to continue: start one without --continue/,
    );
  });
});
