import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, hasStackTrace, spawnBin, TEST_STATE_HOME } from '../support/bin-process.js';

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
  it('--help prints the usage on stdout and exits 0', async () => {
    const { code, stdout, stderr } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: dsh-acp \[options\]/);
    for (const flag of [
      '--script FILE',
      '--base-url URL',
      '--model NAME',
      '--timeout TIME',
      '--request-timeout TIME',
      '--retries N',
    ]) {
      expect(stdout).toContain(flag);
    }
    expect(stderr).toBe('');
  });

  it('--version prints the package version', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect((await run(['-V'])).stdout).toBe(`${version}\n`);
  });

  it.each([
    [['--nope'], 'dsh-acp: unknown option --nope (see dsh-acp --help)\n'],
    [['extra'], 'dsh-acp: unexpected argument "extra" (see dsh-acp --help)\n'],
    [['--script'], 'dsh-acp: --script needs a value (see dsh-acp --help)\n'],
    [
      ['--timeout', 'soon'],
      'dsh-acp: --timeout takes a duration from 1ms to 24 days, such as 90000, 90s or 5m (got "soon") (see dsh-acp --help)\n',
    ],
    [
      ['--model', 'qwen3'],
      'dsh-acp: --model qwen3 needs a model server: set DEEPSEEK_API_KEY (or DSH_API_KEY), or pass --base-url. (see dsh-acp --help)\n',
    ],
    [['--base-url', 'ftp://models.example'], expect.stringMatching(/^dsh-acp: .*http.*\n$/)],
    [
      ['--retries', '11'],
      'dsh-acp: --retries takes a whole number from 0 to 10 (got "11") (see dsh-acp --help)\n',
    ],
    [
      ['--request-timeout', '20'],
      'dsh-acp: --request-timeout 20 would be 20 milliseconds: write 20s for seconds, or 20ms if you mean it (see dsh-acp --help)\n',
    ],
  ])('a usage error (%j) prints one line to stderr and exits 2', async (args, line) => {
    const { code, stdout, stderr } = await run(args);
    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: line });
  });

  it.each([
    ['a missing script', '/no/such/script.json', /^dsh-acp: Cannot read script .*\n$/],
    [
      'an invalid script',
      fixture('invalid.json'),
      /^dsh-acp: Invalid script .*answer:missing.*\n$/,
    ],
  ])('%s is a fatal error: one line, no stack trace, exit 1', async (_, path, line) => {
    const { code, stdout, stderr } = await run(['--script', path]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(line);
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
