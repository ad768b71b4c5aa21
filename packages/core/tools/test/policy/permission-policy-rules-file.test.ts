import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from '../../src/index.js';
import { fileCheck as file, policySetUp, commandCheck as run } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-policy-');
let count = 0;
const setUp = policySetUp(base, () => ++count);

describe('the permission policy', () => {
  it('remembers "always" in the workspace’s rules file, seen at once by another session', async () => {
    const { workspace, stateDir, policy } = await setUp();
    const other = createPermissionPolicy({ workspace, stateDir });
    expect(await other.decide(run(workspace, 'npm test'))).toMatchObject({ decision: 'ask' });
    await policy.remember?.('run_command:npm test', 'allow');
    await policy.remember?.('edit_file:src/*.ts', 'deny');
    expect(await other.decide(run(workspace, 'npm test -- -u'))).toMatchObject({
      decision: 'allow',
      decidedBy: { source: expect.stringContaining('workspace rules') },
    });
    expect(await other.decide(file(workspace, 'edit_file', 'src/b.ts'))).toMatchObject({
      decision: 'deny',
    });
    const saved = JSON.parse(readFileSync(policy.files.workspace, 'utf8'));
    expect(saved).toEqual({
      version: 1,
      workspace: workspace.root,
      allow: ['run_command:npm test'],
      deny: ['edit_file:src/*.ts'],
    });
    expect(statSync(policy.files.workspace).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(policy.files.workspace)).mode & 0o777).toBe(0o700);
    expect(policy.rules()).toEqual([
      {
        rule: 'edit_file:src/*.ts',
        effect: 'deny',
        source: 'workspace rules',
        path: policy.files.workspace,
      },
      {
        rule: 'run_command:npm test',
        effect: 'allow',
        source: 'workspace rules',
        path: policy.files.workspace,
      },
    ]);
  });

  it('decides a command decided before against the rules as they are now', async () => {
    const { workspace, stateDir, policy } = await setUp();
    const other = createPermissionPolicy({ workspace, stateDir });
    const command = 'npm test && echo "done" && git status --short | grep src';
    expect(await policy.decide(run(workspace, command))).toMatchObject({ decision: 'ask' });
    for (const rule of ['npm test', 'echo', 'git status', 'grep']) {
      await other.remember?.(`run_command:${rule}`, 'allow');
    }
    expect(await policy.decide(run(workspace, command))).toMatchObject({
      decision: 'allow',
      decidedBy: {
        rule: 'run_command:npm test, run_command:echo, run_command:git status, run_command:grep',
      },
    });
    // The person's own file, written by another process.
    mkdirSync(dirname(policy.files.user), { recursive: true, mode: 0o700 });
    writeFileSync(
      policy.files.user,
      JSON.stringify({ version: 1, allow: [], deny: ['run_command:git status'] }),
      { mode: 0o600 },
    );
    expect(await policy.decide(run(workspace, command))).toMatchObject({
      decision: 'deny',
      decidedBy: { rule: 'run_command:git status', source: expect.stringContaining('your rules') },
    });
  });

  it('loses no rule when two processes remember at the same time', async () => {
    const { workspace, stateDir, policy } = await setUp();
    const script = (rule: string) => `
      import { createPermissionPolicy, openWorkspace } from ${JSON.stringify(new URL('../../src/index.ts', import.meta.url).pathname)};
      const policy = createPermissionPolicy({ workspace: await openWorkspace(${JSON.stringify(workspace.root)}), stateDir: ${JSON.stringify(stateDir)} });
      for (let i = 0; i < 10; i++) await policy.remember(${JSON.stringify(rule)} + i, 'allow');`;
    const child = (rule: string) =>
      new Promise<number>((resolve) => {
        const process = spawn(
          'node',
          ['--import', 'tsx', '--input-type=module', '-e', script(rule)],
          { stdio: 'inherit' },
        );
        process.on('exit', (code) => resolve(code ?? -1));
      });
    expect(await Promise.all([child('run_command:a'), child('run_command:b')])).toEqual([0, 0]);
    expect(
      policy
        .rules()
        .map((rule) => rule.rule)
        .sort(),
    ).toHaveLength(20);
  }, 30_000);

  it('refuses a damaged, symlinked, FIFO, foreign or world-writable rules file, never half-reading it', async () => {
    const { workspace, stateDir, policy } = await setUp();
    const path = policy.files.workspace;
    mkdirSync(dirname(path), { recursive: true });
    const expectRefused = async (why: RegExp) => {
      const fresh = createPermissionPolicy({ workspace, stateDir });
      await expect(fresh.decide(run(workspace, 'ls'))).rejects.toMatchObject({
        code: 'RULES_FILE_INVALID',
        message: expect.stringMatching(why),
      });
    };
    writeFileSync(path, '{"version":1,"allow":["run_command:ls"', { mode: 0o600 });
    await expectRefused(/not valid JSON/);
    writeFileSync(path, '{"version":2,"allow":[]}');
    await expectRefused(/newer version/);
    writeFileSync(path, '{"version":1,"allow":["run_command:ls", ":bad"]}');
    await expectRefused(/allow\[1\]/);
    writeFileSync(path, '{"version":1,"allow":["run_command:ls"]}');
    chmodSync(path, 0o666);
    await expectRefused(/can be written by other users.*chmod 600/);
    rmSync(path);
    const target = join(base, `elsewhere${count}.json`);
    writeFileSync(target, '{"version":1,"allow":["run_command"]}', { mode: 0o600 });
    symlinkSync(target, path);
    await expectRefused(/symbolic link/);
    rmSync(path);
    await new Promise<void>((resolve, reject) =>
      spawn('mkfifo', [path]).on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error('mkfifo')),
      ),
    );
    await expectRefused(/not a regular file/);
    rmSync(path);
    if (process.getuid?.() === 0) {
      writeFileSync(path, '{"version":1,"allow":["run_command"]}', { mode: 0o600 });
      chownSync(path, 12345, 12345);
      await expectRefused(/another user/);
    }
  });

  it('refuses a rule that is not TOOL or TOOL:PATTERN', async () => {
    const { workspace, stateDir } = await setUp();
    for (const rule of [
      '',
      ':x',
      'run command',
      'edit_file:',
      'edit_file:../x',
      'edit_file:/etc/*',
    ]) {
      expect(() => createPermissionPolicy({ workspace, stateDir, allow: [rule] }), rule).toThrow(
        /TOOL or TOOL:PATTERN/,
      );
    }
  });
});
