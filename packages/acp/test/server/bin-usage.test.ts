import { describe, expect, it } from 'vitest';
import {
  endInput,
  fixture,
  hasStackTrace,
  jsonRpcLine,
  spawnBin,
  startBin,
} from '../support/bin-process.js';
import { MANIFEST } from '../support/package-manifest.js';

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
  // What the program says and does is tested in-process (acp-agent-program.test.ts, the program-*
  // files, and the list of usage errors once in dsh-agent); here the bin itself, once each way out.
  it('--help and --version print on stdout and exit 0; a usage error is one line on stderr, exit 2', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: dsh-acp \[options\]/);
    expect(help.stderr).toBe('');
    expect(await run(['--version'])).toEqual({
      code: 0,
      stdout: `${MANIFEST.version}\n`,
      stderr: '',
    });
    expect(await run(['--nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'dsh-acp: unknown option --nope (see dsh-acp --help)\n',
    });
  });

  it('starts, answers initialize over real pipes, and exits 0 when its stdin ends', async () => {
    const bin = startBin(['--script', fixture('hello.json')]);
    bin.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}\n',
    );
    expect(jsonRpcLine(await bin.lines.next())).toMatchObject({
      id: 1,
      result: { protocolVersion: 1, agentInfo: { name: 'dsh-acp' } },
    });
    expect(await endInput(bin)).toEqual({ code: 0, signal: null });
    expect(bin.lines.all).toHaveLength(1);
    expect(bin.stderr()).toContain(
      `dsh-acp: serving script ${fixture('hello.json')} (offline, scripted) over ACP on stdin/stdout\n`,
    );
    expect(hasStackTrace(bin.stderr()), bin.stderr()).toBe(false);
  });
});
