import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DESCRIPTION } from 'dsh-agent/command-line';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  BIN,
  fixture,
  hasStackTrace,
  runBin,
  startBin,
  TEST_STATE_HOME,
} from '../support/bin-process.js';

beforeAll(assertBuilt);

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

const ESCAPE = '\u001b';

/** What the demo says at start: its model, and the scratch folder it works in. */
const DEMO_STATUS = new RegExp(
  `^Model: ${DEMO_DESCRIPTION.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nWorkspace: /\\S+/dsh-demo-\\w+ \\(a scratch folder made for the demo: your own files are never touched\\)\n$`,
);

describe('dsh-stdio-agent with piped input', () => {
  it('reads the prompt and the answers in order, and exits 0 at the end of input', async () => {
    const bin = startBin([]);
    bin.write('hello\n1\nmy-app\n');
    // The input ends while the third question waits for an answer.
    await bin.waitForOutput('Which database should my-app use?');
    bin.end();
    const { code, stdout, stderr } = await bin.done;
    expect(code).toBe(0);
    expect(stderr).toMatch(DEMO_STATUS);
    expect(stdout.startsWith('> hello\nHi! I am the dsh demo agent.')).toBe(true);
    // The answers reached the model: its summary quotes them.
    expect(stdout).toContain('Choose 1-4 (Enter: 1): 1\n✔ Language · TypeScript\n');
    expect(stdout).toContain('Answer: my-app\n✔ Project name · my-app\n');
    expect(stdout).toContain('- Project: my-app\n- Language: TypeScript\n');
    // The questions left once the input ended fail at once, and the turn still ends.
    // The three questions asked at once end together, none of them answered.
    expect(stdout).toContain(
      '⊘ Database · not answered: input closed\n⊘ Features · not answered: input closed\n⊘ License · not answered: input closed\n',
    );
    expect(stdout).toContain('✖ Hosting · not asked: the input ended (INPUT_CLOSED)\n');
    expect(stdout).toContain(
      '- Database: (not chosen)\n- Features: (none chosen)\n- License: (not chosen)\n- Hosting: (not chosen)\n',
    );
    expect(stdout.endsWith('you approve the edit and the command first.\n\n')).toBe(true);
    expect(stdout).not.toContain(ESCAPE);
  });

  it('asks three questions at once in order, numbers for several choices, Enter for the recommended', async () => {
    const { code, stdout } = await runBin([], 'hello\n1\nmy-app\n2\n1,3 =logs\n\n1\n');
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
    const forced = await runBin([], 'hello\n1\n', { FORCE_COLOR: '1' });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(ESCAPE);
    const plain = await runBin(['--no-color'], 'hello\n1\n', { FORCE_COLOR: '1' });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(ESCAPE);
    expect(plain.stdout).toContain('✔ Language · TypeScript');
  });

  it('exits 0 promptly when the input ends while a question waits', async () => {
    const bin = startBin([]);
    bin.write('hello\n');
    await bin.waitForOutput('Choose 1-4 (Enter: 1): ');
    const ended = Date.now();
    bin.end();
    const { code, stdout, stderr } = await bin.done;
    expect(code).toBe(0);
    expect(Date.now() - ended).toBeLessThan(900);
    expect(stdout).toContain('⊘ Language · not answered: input closed\n');
    expect(stdout).toContain('- Project: (no name given)');
    expect(stderr).toMatch(DEMO_STATUS);
  });

  it('asks before the demo edits its scratch folder and runs a command: y allows, n rejects, the end denies', async () => {
    const answers = 'hello\n1\nmy-app\n2\n1,3\n\n1\nwrite it\n';
    const allowed = await runBin(['--no-history'], `${answers}y\ny\n`);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('? Allow this? Edit PLAN.md\n');
    expect(allowed.stdout).toContain('  -Nothing is decided yet.\n  +- Project: my-app\n');
    expect(allowed.stdout).toContain(
      'Allow? y, n or 1-4: y\n✔ Edit PLAN.md · allowed once\n✔ edit_file · Edit PLAN.md · ok\n',
    );
    expect(allowed.stdout).toContain('  $ wc -l PLAN.md\n');
    expect(allowed.stdout).toContain('✔ run_command · Run wc -l PLAN.md · exit 0\n');
    const folder = /Workspace: (\S+) /.exec(allowed.stderr)?.[1] ?? '';
    expect(folder).toMatch(/dsh-demo-/);
    // The scratch folder is the demo's own, and it is gone once the program ends.
    expect(() => readFileSync(`${folder}/PLAN.md`)).toThrow();

    const rejected = await runBin(['--no-history'], `${answers}n\n`);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toContain('✖ Edit PLAN.md · rejected\n');
    expect(rejected.stdout).not.toContain('edit_file · Edit PLAN.md · ok');
    // The input ended at the command's approval: denied, never run.
    expect(rejected.stdout).toContain(
      '✖ Run wc -l PLAN.md · denied, not asked: the input ended (INPUT_CLOSED)\n',
    );
    expect(rejected.stdout).not.toContain('run_command · Run wc -l PLAN.md · exit');
  });

  it('--permissions lists the rules in force and where they live; a bad --allow is a usage error', async () => {
    const state = mkdtempSync(join(tmpdir(), 'dsh-permissions-'));
    try {
      const listed = await runBin([
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
      const bad = await runBin(['--allow', 'run command', '--state-dir', state]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(
        /^dsh-stdio-agent: The rule "run command" does not start with a tool name: a rule is TOOL or TOOL:PATTERN, such as run_command:npm test or write_file:docs\/\*\*\. \(try dsh-stdio-agent --help\)\n$/,
      );
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('exits 0 at once on an empty input, with nothing but the prompt', async () => {
    const { code, stdout } = await runBin([], '');
    expect({ code, stdout }).toEqual({ code: 0, stdout: '> \n' });
  });

  it('stops quietly, with status 0, when whoever reads its output goes away (| head)', async () => {
    assertBuilt();
    const child = spawn(process.execPath, [BIN], {
      env: {
        ...process.env,
        DEEPSEEK_API_KEY: '',
        DSH_API_KEY: '',
        XDG_STATE_HOME: TEST_STATE_HOME,
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Like `head -c 10`: read the first bytes, then close the pipe; the agent, waiting for an
    // answer meanwhile, gets it and has more to write.
    child.stdout.once('data', () => {
      child.stdout.destroy();
      child.stdin.end('1\nmy-app\n');
    });
    child.stdin.write('hello\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toMatch(DEMO_STATUS);
  });

  it('replays a script given with --script', async () => {
    const script = fixture('stdio-agent-greeting.json');
    const { code, stdout, stderr } = await runBin(['--script', script], 'hi\nAda\n');
    expect(code).toBe(0);
    expect(stderr.startsWith(`Model: script ${script} (offline, scripted)\nWorkspace: /`)).toBe(
      true,
    );
    expect(stderr.split('\n')).toHaveLength(3);
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
    const bin = startBin(['--timeout', '50ms']);
    bin.write('hello\n');
    await bin.waitForOutput('The next question has no options');
    bin.end();
    const { code, stdout } = await bin.done;
    expect(code).toBe(0);
    expect(stdout).toContain(
      '⊘ Language · timed out, withdrawn\n  ↳ the agent was told: no answer within 50 ms (ASK_TIMEOUT)\n',
    );
  });
});

describe('the dsh-stdio-agent command line', () => {
  // The program's help, version and usage errors are tested in-process
  // (terminal-agent-program.test.ts, and the list of usage errors once in dsh-agent); here the
  // bin itself, once each way out.
  it('--help and --version print on stdout and exit 0; a usage error is one line on stderr, exit 2', async () => {
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: dsh-stdio-agent \[options\]\n/);
    expect(help.stderr).toBe('');
    expect(await runBin(['--version'])).toEqual({
      code: 0,
      signal: null,
      stdout: `${version}\n`,
      stderr: '',
    });
    expect(await runBin(['--nope'], '', { DSH_COMMAND: 'pnpm start --' })).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: 'dsh-stdio-agent: unknown option --nope (try pnpm start -- --help)\n',
    });
  });

  it('a missing script is a fatal error: one line, no stack trace, exit 1', async () => {
    const { code, stdout, stderr } = await runBin(['--script', '/no/such/script.json'], 'hello\n');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^dsh-stdio-agent: Cannot read script \/no\/such\/script\.json: no such file\.\n$/,
    );
    expect(hasStackTrace(stderr)).toBe(false);
  });
});
