import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, hasStackTrace } from '../support/bin-process.js';
import { runProgram, startProgram } from '../support/program-run.js';

// The dsh-stdio-agent program in-process with piped input, as its bin runs it (bin.test.ts runs
// the bin itself): line mode, as in `printf … | dsh-stdio-agent`.

const ESCAPE = '\u001b';

describe('the dsh-stdio-agent program with piped input', () => {
  it('asks three questions at once in order, numbers for several choices, Enter for the recommended', async () => {
    const { code, stdout } = await runProgram([], 'hello\n1\nmy-app\n2\n1,3 =logs\n\n1\n');
    expect(code).toBe(0);
    expect(stdout).toContain('Question 1 of 3\n? Database\n  Which database should my-app use?\n');
    expect(stdout).toContain(
      'Choose any of 1-4, such as 1,3, and/or =your own answer: 1,3 =logs\nQuestion 3 of 3\n',
    );
    expect(stdout).toContain(
      'Choose 1-3 (Enter: 1): \n✔ Database · SQLite\n✔ Features · Authentication, API docs, logs\n✔ License · MIT\n',
    );
    expect(stdout).toContain(
      '- Database: SQLite\n- Features: Authentication, API docs, logs\n- License: MIT\n- Hosting: containers\n',
    );
  });

  it('colours piped output only when FORCE_COLOR asks, and never with --no-color', async () => {
    const forced = await runProgram([], 'hello\n1\n', { FORCE_COLOR: '1' });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(ESCAPE);
    const plain = await runProgram(['--no-color'], 'hello\n1\n', { FORCE_COLOR: '1' });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(ESCAPE);
    expect(plain.stdout).toContain('✔ Language · TypeScript');
  });

  it('asks before the demo edits its scratch folder and runs a command: y allows, n rejects, the end denies', async () => {
    const answers = 'hello\n1\nmy-app\n2\n1,3\n\n1\nwrite it\n';
    const allowed = await runProgram(['--no-history'], `${answers}y\ny\n`);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('? Allow this? Overwrite PLAN.md\n');
    expect(allowed.stdout).toContain('  -Nothing is decided yet.\n  +- Project: my-app\n');
    expect(allowed.stdout).toContain(
      'Allow? y, n or always (no numbers from a pipe): y\n✔ Overwrite PLAN.md · allowed once\n✔ write_file · Overwrite PLAN.md · ok\n',
    );
    expect(allowed.stdout).toContain('  $ wc -l PLAN.md\n');
    expect(allowed.stdout).toContain('✔ run_command · Run wc -l PLAN.md · exit 0\n');
    const folder = /Workspace: (\S+) /.exec(allowed.stderr)?.[1] ?? '';
    expect(folder).toMatch(/dsh-demo-/);
    // The scratch folder is the demo's own, and it is gone once the program ends.
    expect(() => readFileSync(`${folder}/PLAN.md`)).toThrow();

    const rejected = await runProgram(['--no-history'], `${answers}n\n`);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toContain('✖ Overwrite PLAN.md · rejected\n');
    expect(rejected.stdout).not.toContain('write_file · Overwrite PLAN.md · ok');
    // The input ended at the command's approval: denied, never run.
    expect(rejected.stdout).toContain(
      '✖ Run wc -l PLAN.md · denied, not asked: the input ended (INPUT_CLOSED)\n',
    );
    expect(rejected.stdout).not.toContain('run_command · Run wc -l PLAN.md · exit');

    // A number meant for a question never approves the edit, nor writes its "always" rule.
    const numbered = await runProgram(['--no-history'], `${answers}2\n1\n`);
    expect(numbered.code).toBe(0);
    expect(numbered.stdout.split('never a number').length - 1).toBe(2);
    expect(numbered.stdout).toContain('Overwrite PLAN.md · not answered: input closed\n');
    expect(numbered.stdout).not.toContain('write_file · Overwrite PLAN.md · ok');
  });

  it('"always" in the demo says where its rule is, leaves nothing in the state but the session, and the second part runs again', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'dsh-demo-state-test-'));
    try {
      const questions = '1\nmy-app\n2\n1,3\n\n1\n';
      const input = `hello\n${questions}write it\nalways\nalways\nagain\n${questions}write it\n`;
      const { code, stdout } = await runProgram(['--state-dir', stateDir], input);
      expect(code).toBe(0);
      const saved = /↳ rule saved in (\S+) \(the demo's own: removed when it ends\)\n/.exec(stdout);
      expect(saved?.[1]).toMatch(/dsh-demo-state-.*\.json$/);
      // The second time, the rules written the first time decide, and the write works.
      expect(stdout).toContain('✔ Overwrite PLAN.md · allowed by rule `write_file:PLAN.md`');
      expect(stdout.match(/✔ write_file · Overwrite PLAN\.md · ok\n/g)).toHaveLength(2);
      expect(stdout.match(/✔ run_command · Run wc -l PLAN\.md · exit 0\n/g)).toHaveLength(2);
      expect(stdout).not.toContain('NOT_FOUND');
      // Nothing in the person's state but the session; the demo's rules went with it.
      expect(readdirSync(stateDir)).toEqual(['sessions']);
      expect(existsSync(saved?.[1] ?? '')).toBe(false);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('--permissions lists the rules in force and where they live; a bad --allow is a usage error', async () => {
    const state = mkdtempSync(join(tmpdir(), 'dsh-permissions-'));
    try {
      const listed = await runProgram([
        '--permissions',
        '--state-dir',
        state,
        '--allow',
        'run_command:npm test',
        '--deny',
        'run_command:rm',
      ]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(
        'Rules in force (deny wins over allow):\n  deny   run_command:rm  (--deny)\n  allow  run_command:npm test  (--allow)\n',
      );
      expect(listed.stdout).toContain(
        `This folder's rules ("always" answers): ${state}/permissions/workspaces/`,
      );
      expect(listed.stdout).toContain(
        `Your rules for every folder: ${state}/permissions/user.json`,
      );
      const bad = await runProgram(['--allow', 'run command', '--state-dir', state]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(
        /^dsh-stdio-agent: The rule "run command" does not start with a tool name: a rule is TOOL or TOOL:PATTERN, such as run_command:npm test or write_file:docs\/\*\*\. \(try dsh-stdio-agent --help\)\n$/,
      );
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('exits 0 at once on an empty input, with nothing but the prompt', async () => {
    const { code, stdout } = await runProgram([], '');
    expect({ code, stdout }).toEqual({ code: 0, stdout: '> \n' });
  });

  it('replays a script given with --script', async () => {
    const script = fixture('stdio-agent-greeting.json');
    const { code, stdout, stderr } = await runProgram(['--script', script], 'hi\nAda\n');
    expect(code).toBe(0);
    expect(stderr.startsWith(`Model: script ${script} (offline, scripted)\nWorkspace: /`)).toBe(
      true,
    );
    // Model, workspace, and whether commands run in the sandbox.
    expect(stderr.split('\n')).toHaveLength(4);
    expect(stderr.split('\n')[2]).toMatch(/^Sandbox: /);
    const transcript = [
      '> hi',
      'Hello! One question first.',
      '? Name',
      '  What should I call you?',
      'Answer: Ada',
      '✔ Name · Ada',
      'Nice to meet you, Ada.',
      '',
      '',
    ].join('\n');
    // Whether the end of input is known before the turn ends depends on the pipe: if not,
    // one more prompt is shown, and left at once.
    expect([transcript, `${transcript}> \n`]).toContain(stdout);
  });

  it('gives a question the --timeout time limit', async () => {
    const program = startProgram(['--timeout', '50ms']);
    program.write('hello\n');
    await program.waitForOutput('The next question has no options');
    program.end();
    const { code, stdout } = await program.done;
    expect(code).toBe(0);
    expect(stdout).toContain(
      '⊘ Language · timed out, withdrawn\n  ↳ the agent was told: no answer within 50 ms (ASK_TIMEOUT)\n',
    );
  });

  it('a missing script is a fatal error: one line, no stack trace, exit 1', async () => {
    const { code, stdout, stderr } = await runProgram(
      ['--script', '/no/such/script.json'],
      'hello\n',
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^dsh-stdio-agent: Cannot read script \/no\/such\/script\.json: no such file\.\n$/,
    );
    expect(hasStackTrace(stderr)).toBe(false);
  });
});
