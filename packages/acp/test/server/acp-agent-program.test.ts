import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runAgentProgram } from 'dsh-agent/command-line';
import {
  AGENT_PROGRAM_FLAGS,
  removeTemporaryStateFolders,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { acpAgentProgram } from '../../src/server/acp-agent-program.js';
import { hasStackTrace, TEST_STATE_HOME } from '../support/bin-process.js';
import { MANIFEST } from '../support/package-manifest.js';
import { startProgram } from '../support/program-client.js';

// The dsh-acp program in-process, as its bin runs it (bin-usage.test.ts runs the bin itself once):
// its help, version, hint and own flag, its fatal errors, and what it says when it serves. The usage errors themselves are listed once, in dsh-agent.

async function run(args: readonly string[]) {
  const said: string[] = [];
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk) => (written += chunk));
  const program = acpAgentProgram({ log: (line) => said.push(line), stdout });
  const code = await runAgentProgram(program, args, { env: {}, stdout });
  return { code, stdout: written, said };
}

afterEach(removeTemporaryStateFolders);

describe('the dsh-acp program', () => {
  it('--help lists its flags on stdout', async () => {
    const { code, stdout, said } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: dsh-acp \[options\]/);
    for (const flag of [...AGENT_PROGRAM_FLAGS, '--questions-as-permissions']) {
      expect(stdout).toContain(flag);
    }
    expect(said).toEqual([]);
  });

  it('--version and -V print the package version', async () => {
    expect(await run(['--version'])).toEqual({
      code: 0,
      stdout: `${MANIFEST.version}\n`,
      said: [],
    });
    expect((await run(['-V'])).stdout).toBe(`${MANIFEST.version}\n`);
  });

  it('ends a usage error with its own hint, its boolean flag taking no value', async () => {
    expect(await run(['--questions-as-permissions=yes'])).toEqual({
      code: 2,
      stdout: '',
      said: ['--questions-as-permissions takes no value (see dsh-acp --help)'],
    });
  });

  it('an invalid script is a fatal error: one line, status 1', async () => {
    const { code, said } = await run([
      '--script',
      fileURLToPath(new URL('../fixtures/invalid.json', import.meta.url)),
    ]);
    expect(code).toBe(1);
    expect(said).toEqual([expect.stringMatching(/^Invalid script .*answer:missing/)]);
  });

  it('a missing script is a fatal error: one line, no stack trace, status 1', async () => {
    const { code, stdout, said } = await run(['--script', '/no/such/script.json']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(said).toEqual([expect.stringMatching(/^Cannot read script [^\n]*$/)]);
    expect(hasStackTrace(said.join('\n'))).toBe(false);
  });

  it('serving with an empty input: says what it serves in its log, writes nothing, ends with 0', async () => {
    const served = startProgram([]);
    served.end();
    expect(await served.exited).toBe(0);
    expect(served.lines.all).toEqual([]);
    // One line says whether commands run in the sandbox: which depends on this machine.
    const lines = served.stderr().split('\n');
    expect(lines.filter((line) => line.startsWith('dsh-acp: Sandbox: '))).toHaveLength(1);
    expect(lines.filter((line) => !line.startsWith('dsh-acp: Sandbox: '))).toEqual([
      'dsh-acp: serving built-in demo (offline, scripted); set DEEPSEEK_API_KEY or pass --base-url to use a real model over ACP on stdin/stdout',
      `dsh-acp: conversations are saved in ${TEST_STATE_HOME}/dsh`,
      '',
    ]);
    const memory = startProgram(['--no-history']);
    memory.end();
    expect(await memory.exited).toBe(0);
    expect(memory.stderr()).toContain(
      'dsh-acp: conversations are kept in memory only (--no-history)',
    );
  });

  it('--permissions lists the rules in force on stdout; a bad --allow is a usage error', async () => {
    const state = temporaryStateFolder();
    const listed = await run(['--permissions', '--state-dir', state, '--deny', 'run_command:rm']);
    expect(listed.code).toBe(0);
    expect(listed.said).toEqual([]);
    expect(listed.stdout).toContain(
      'Rules in force (deny wins over allow):\n  deny   run_command:rm  (--deny)\n',
    );
    expect(listed.stdout).toContain(`Your rules for every folder: ${state}/permissions/user.json`);
    expect(await run(['--allow', 'run command', '--state-dir', state])).toEqual({
      code: 2,
      stdout: '',
      said: [
        'The rule "run command" does not start with a tool name: a rule is TOOL or TOOL:PATTERN, such as run_command:npm test or write_file:docs/**. (see dsh-acp --help)',
      ],
    });
  });
});
