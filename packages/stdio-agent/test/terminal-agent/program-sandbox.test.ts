import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptToolCall } from 'dsh-agent';
import { writeScriptFile } from 'dsh-agent/testing';
import { probeSandbox } from 'dsh-tools';
import { afterAll, describe, expect, it } from 'vitest';
import { runProgram } from '../support/program-run.js';

// The sandbox as the person meets it in the terminal program: the status line, what a command
// can reach, and the question that leaving the sandbox always is. Under /var/tmp, so that the
// sandbox's private /tmp does not hide the test's files by itself.

const base = mkdtempSync('/var/tmp/dsh-stdio-sandbox-');
afterAll(() => rmSync(base, { recursive: true, force: true }));
const available = (await probeSandbox()).available;
let count = 0;

function setUp(callsFor: (paths: { root: string; home: string }) => ScriptToolCall[]) {
  const root = join(base, `r${++count}`);
  const home = join(root, 'home');
  const folder = join(root, 'project');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
  const script = writeScriptFile(root, {
    steps: [{ text: 'Working.', toolCalls: callsFor({ root, home }) }, { text: 'Done.' }],
  });
  const args = ['--script', script, '--state-dir', join(root, 'state'), '--allow', 'run_command'];
  return { root, home, folder, args, env: { HOME: home } };
}

describe.skipIf(!available)('dsh-stdio-agent with the sandbox', () => {
  it('says so at start; a command allowed by a rule still cannot reach ~/.ssh or write outside', async () => {
    const { root, folder, args, env } = setUp(({ root, home }) => [
      {
        id: 'c1',
        name: 'run_command',
        arguments: {
          command: `cat ${home}/.ssh/id_rsa || echo no-key; touch inside.txt; touch ${root}/outside.txt`,
        },
      },
    ]);
    const { code, stdout, stderr } = await runProgram(args, 'go\n', env, { cwd: folder });
    expect(code).toBe(0);
    expect(stderr).toMatch(/^Sandbox: on \(bubblewrap\): commands write only the workspace/m);
    expect(stdout).toContain('no-key');
    expect(stdout).not.toContain('PRIVATE KEY');
    expect(stdout).toContain(
      'exit 1 · the sandbox blocked a write outside the workspace (the rest of the file system is read-only in the sandbox)',
    );
    expect(existsSync(join(root, 'outside.txt'))).toBe(false);
    expect(existsSync(join(folder, 'inside.txt'))).toBe(true);
  });

  it('shows on the approval that a command runs sandboxed, and says allow-sandboxed at start', async () => {
    const { folder, args, env } = setUp(() => [
      { id: 'c1', name: 'run_command', arguments: { command: 'touch made.txt' } },
    ]);
    const withoutRule = args.filter((arg) => arg !== '--allow' && arg !== 'run_command');
    const asked = await runProgram(withoutRule, 'go\ny\n', env, { cwd: folder });
    expect(asked.stdout).toContain('  Sandboxed: it writes only the workspace and a private /tmp');
    expect(existsSync(join(folder, 'made.txt'))).toBe(true);
    const auto = await runProgram(
      [...withoutRule, '--permission-mode', 'allow-sandboxed'],
      'go\n',
      env,
      { cwd: folder },
    );
    expect(auto.stderr).toContain(
      'Sandboxed commands run without asking unless a rule denies them (--permission-mode allow-sandboxed).',
    );
    // Not asked: the input ended after the prompt, and the command ran all the same.
    expect(auto.stdout).not.toContain('Allow?');
    expect(auto.stdout).toContain('✔ run_command · Run touch made.txt · exit 0');
  });

  it('asks before a command leaves the sandbox, though a rule allows the command: never by itself', async () => {
    const { root, folder, args, env } = setUp(({ root }) => [
      {
        id: 'c1',
        name: 'run_command',
        arguments: { command: `touch ${root}/outside.txt`, sandbox: 'none' },
      },
    ]);
    // The input ends before the question: nobody allowed it, so it did not run.
    const ended = await runProgram(args, 'go\n', env, { cwd: folder });
    expect(ended.stdout).toContain('[NOT sandboxed] · denied, not asked: the input ended');
    expect(existsSync(join(root, 'outside.txt'))).toBe(false);
    // The person is asked, sees how far it reaches and the exact "always", allows it: it runs.
    const allowed = await runProgram(args, 'go\ny\n', env, { cwd: folder });
    expect(allowed.stdout).toContain('OUTSIDE THE SANDBOX: it runs with your full powers');
    expect(allowed.stdout).toContain(
      `Always run exactly \`touch ${root}/outside.txt\` outside the sandbox`,
    );
    expect(allowed.stdout).toContain('allowed once');
    expect(existsSync(join(root, 'outside.txt'))).toBe(true);
  });
});
