import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DEMO_DESCRIPTION } from 'dsh-agent/command-line';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, runBin, startBin, TEST_STATE_HOME } from '../support/bin-process.js';

beforeAll(assertBuilt);

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

const ESCAPE = '\u001b';

/** What the demo says at start: its model, and the scratch folder it works in. */
const DEMO_STATUS = new RegExp(
  `^Model: ${DEMO_DESCRIPTION.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nWorkspace: /\\S+/dsh-demo-\\d+-\\w+ \\(a scratch folder made for the demo: your own files are never touched\\)\nSandbox: [^\n]+\n$`,
);

// What the program does with piped input is tested in-process (program-piped.test.ts); here the
// bin itself: it starts, answers and exits 0, promptly, and quietly when its reader goes away.
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
});

describe('the dsh-stdio-agent command line', () => {
  // The program's help, version, usage and fatal errors are tested in-process
  // (terminal-agent-program.test.ts, program-piped.test.ts, and the list of usage errors once in
  // dsh-agent); here the bin itself, once each way out.
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
});
