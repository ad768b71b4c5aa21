import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasStackTrace, spawnBin, TEST_STATE_HOME } from '../support/bin-process.js';

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

/** Runs the bin to its end with no input, as a shell would. */
function run(args: readonly string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawnBin(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end();
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the dsh-acp command line', () => {
  // The program's help, version and usage errors are tested in-process (acp-agent-program.test.ts,
  // and the list of usage errors once in dsh-agent); here the bin itself, once each way out.
  it('--help and --version print on stdout and exit 0; a usage error is one line on stderr, exit 2', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: dsh-acp \[options\]/);
    expect(help.stderr).toBe('');
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await run(['--nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'dsh-acp: unknown option --nope (see dsh-acp --help)\n',
    });
  });

  it('a missing script is a fatal error: one line, no stack trace, exit 1', async () => {
    const { code, stdout, stderr } = await run(['--script', '/no/such/script.json']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^dsh-acp: Cannot read script .*\n$/);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(hasStackTrace(stderr)).toBe(false);
  });

  it('serving with an empty stdin: says what it serves on stderr, nothing on stdout, exits 0', async () => {
    const { code, stdout, stderr } = await run([]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      [
        'dsh-acp: serving built-in demo (offline, scripted); set DEEPSEEK_API_KEY or pass --base-url to use a real model over ACP on stdin/stdout',
        `dsh-acp: conversations are saved in ${TEST_STATE_HOME}/dsh`,
        '',
      ].join('\n'),
    );
    const memory = await run(['--no-history']);
    expect(memory.stderr).toContain(
      'dsh-acp: conversations are kept in memory only (--no-history)',
    );
  });
});
