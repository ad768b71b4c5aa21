import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runAgentProgram } from 'dsh-agent/command-line';
import { AGENT_PROGRAM_FLAGS } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { terminalAgentProgram } from '../../src/terminal-agent/terminal-agent-program.js';

// The dsh-stdio-agent program in-process, as its bin runs it (bin.test.ts runs the bin itself
// once): its help, version, hint and own flags. The usage errors themselves are listed once, in
// dsh-agent.

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

async function run(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const said: string[] = [];
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk) => (written += chunk));
  const program = terminalAgentProgram({ say: (line) => said.push(line) });
  const code = await runAgentProgram(program, args, { env, stdout });
  return { code, stdout: written, said };
}

describe('the dsh-stdio-agent program', () => {
  it('--help (and -h) lists its flags on stdout', async () => {
    const { code, stdout, said } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: dsh-stdio-agent \[options\]\n/);
    for (const flag of [...AGENT_PROGRAM_FLAGS, '--no-color', '--plain']) {
      expect(stdout).toContain(flag);
    }
    expect(said).toEqual([]);
    expect((await run(['-h'])).stdout).toBe(stdout);
  });

  it('--version and -V print the package version', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, said: [] });
    expect((await run(['-V'])).stdout).toBe(`${version}\n`);
  });

  it('names the command as the person started it, in the help and in the hint', async () => {
    const started = { DSH_COMMAND: 'pnpm start --' };
    const help = await run(['--help'], started);
    expect(help.stdout).toMatch(/^Usage: pnpm start -- \[options\]\n/);
    expect(help.stdout).toContain("printf 'hello\\n1\\nmy-app\\n' | pnpm start\n");
    expect(help.stdout).not.toContain('dsh-stdio-agent');
    expect(await run(['--no-color=yes'], started)).toEqual({
      code: 2,
      stdout: '',
      said: ['--no-color takes no value (try pnpm start -- --help)'],
    });
    expect((await run(['--plain=1'])).said).toEqual([
      '--plain takes no value (try dsh-stdio-agent --help)',
    ]);
  });

  it('an invalid script is a fatal error: one line, status 1', async () => {
    const script = fileURLToPath(new URL('../fixtures/stdio-agent-invalid.json', import.meta.url));
    const { code, stdout, said } = await run(['--script', script]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(said).toEqual([
      expect.stringMatching(/^Invalid script .*stdio-agent-invalid\.json: .*answer:missing/),
    ]);
  });
});
