import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from '../../src/index.js';
import { fileCheck as file, policySetUp, commandCheck as run } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-policy-');
const setUp = policySetUp(base);

describe('the permission policy', () => {
  it('lets reads inside the workspace run, and asks for everything that acts', async () => {
    const { workspace, policy } = await setUp();
    expect(await policy.decide(file(workspace, 'read_file', 'src/a.ts', 'read'))).toMatchObject({
      decision: 'allow',
      decidedBy: { kind: 'policy' },
    });
    expect(await policy.decide(file(workspace, 'edit_file', 'src/a.ts'))).toEqual({
      decision: 'ask',
      allowAlways: {
        rule: 'edit_file:src/*.ts',
        description: 'Always allow edit_file on `src/*.ts` in this folder',
      },
      rejectAlways: {
        rule: 'edit_file:src/*.ts',
        description: 'Always reject edit_file on `src/*.ts` in this folder',
      },
    });
    expect(await policy.decide(file(workspace, 'write_file', 'README.md'))).toMatchObject({
      allowAlways: { rule: 'write_file:README.md' },
    });
    expect(await policy.decide(run(workspace, 'npm test -- --watch'))).toMatchObject({
      decision: 'ask',
      allowAlways: {
        rule: 'run_command:npm test',
        description: 'Always allow `npm test` in this folder',
      },
    });
  });

  it('always asks for a path outside the workspace, reads included, and offers no "always"', async () => {
    const { workspace, policy } = await setUp({ allow: ['read_file', 'edit_file'] });
    for (const check of [
      file(workspace, 'read_file', '/etc/passwd', 'read'),
      file(workspace, 'edit_file', '/etc/hosts'),
    ]) {
      expect(await policy.decide(check)).toEqual({ decision: 'ask' });
    }
    const outside = run(workspace, 'ls');
    expect(
      await policy.decide({
        ...outside,
        description: { ...outside.description, command: { command: 'ls', cwd: '/' } },
      }),
    ).toEqual({ decision: 'ask' });
  });

  it('allows a command only when every part is allowed; deny wins', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:npm test', 'run_command:git status'],
      deny: ['run_command:rm'],
    });
    expect(await policy.decide(run(workspace, 'npm test && npm test --coverage'))).toMatchObject({
      decision: 'allow',
      decidedBy: { kind: 'rule', rule: 'run_command:npm test', source: '--allow' },
    });
    expect(await policy.decide(run(workspace, 'git status; npm test'))).toMatchObject({
      decision: 'allow',
    });
    expect(await policy.decide(run(workspace, 'npm testing'))).toMatchObject({ decision: 'ask' });
    const sneaky = [
      'git status; rm -rf x',
      'git status && env rm -rf x',
      'npm test | /bin/rm -rf x',
      'npm test; \\rm x',
      'FOO=1 rm x',
      'bash -c "rm x"',
      'find . -exec rm {} \\;',
      'git status | xargs rm',
      'npm test $(rm x)',
      'npm test `rm x`',
      'npm test <<EOF\n$(rm x)\nEOF',
      'VAR=x; rm y',
      'npm test & ./rm',
      'sudo rm x',
      'timeout 5 rm x',
      'nice -n 5 rm x',
    ];
    for (const command of sneaky) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'deny',
        decidedBy: { rule: 'run_command:rm' },
      });
    }
  });

  it('closes the gaps a second review found: sudo, PATH, options inside a denied command, read-only deny', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:npm test', 'run_command:git status'],
      deny: ['run_command:git push', 'read_file:secrets/**'],
    });
    // An allow rule never becomes a way to run as root; a deny rule still sees through sudo.
    expect(await policy.decide(run(workspace, 'sudo npm test'))).toEqual({ decision: 'ask' });
    // Nor through a script run as root: `sudo bash -c 'npm test'` was allowed by `npm test`.
    for (const command of [
      "sudo bash -c 'npm test'",
      "su -c 'npm test'",
      'sudo find . -exec npm test \\;',
      'pkexec npm test',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // A wrapper the rules did not know hid a denied command, and "always" named the wrapper.
    for (const command of ['setsid git push', "watch 'git push'", 'ionice -c 3 git push']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'deny',
      });
    }
    // `setsid` lets what it starts outlive the command: asked, and "always" never names a
    // command the line does not begin with.
    expect(await policy.decide(run(workspace, 'setsid npm test'))).toEqual({ decision: 'ask' });
    expect(await policy.decide(run(workspace, 'setsid ls -la'))).toEqual({ decision: 'ask' });
    expect(await policy.decide(run(workspace, 'parallel npm test ::: a'))).toEqual({
      decision: 'ask',
    });
    expect(await policy.decide(run(workspace, 'doas -u root git push'))).toMatchObject({
      decision: 'deny',
    });
    // A command that puts its own programs first on the path is never allowed by a rule.
    for (const command of [
      'PATH=/tmp npm test',
      'PATH=/tmp; npm test',
      'export PATH=/tmp; npm test',
      'env PATH=/tmp npm test',
      'LD_PRELOAD=/tmp/x.so git status',
      'NODE_OPTIONS=--require=/tmp/x npm test',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    expect(await policy.decide(run(workspace, 'CI=1 npm test'))).toMatchObject({
      decision: 'allow',
    });
    // Options between a denied command's words: still denied, and "always git" is never offered.
    expect(await policy.decide(run(workspace, 'git -C sub push origin main'))).toMatchObject({
      decision: 'deny',
      decidedBy: { rule: 'run_command:git push' },
    });
    expect(await policy.decide(run(workspace, 'git -C sub log'))).toEqual({ decision: 'ask' });
    expect(await policy.decide(run(workspace, 'make'))).toEqual({ decision: 'ask' });
    const readOnly = createPermissionPolicy({
      workspace,
      stateDir: join(base, 'ro'),
      deny: ['read_file:secrets/**'],
      mode: 'read-only',
    });
    expect(
      await readOnly.decide(file(workspace, 'read_file', 'secrets/key', 'read')),
    ).toMatchObject({ decision: 'deny', decidedBy: { kind: 'rule' } });
    expect(await readOnly.decide(file(workspace, 'read_file', 'src/a.ts', 'read'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('never allows, nor offers to always allow, what cannot be checked', async () => {
    const { workspace, policy } = await setUp({ allow: ['run_command:echo', 'run_command:npm'] });
    for (const command of [
      'eval "rm x"',
      '$CMD',
      'echo "unclosed',
      'npm test > /etc/passwd',
      'source x.sh',
      'bash -c "$X"',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // A # inside a quoted multi-line string is not a comment hiding the rest.
    expect(await policy.decide(run(workspace, 'echo "a\n# b"; rm x'))).toMatchObject({
      decision: 'ask',
    });
    // A brace list is expanded when it runs: not a plain script.
    expect(await policy.decide(run(workspace, 'echo {a,b}; npm ci'))).toEqual({ decision: 'ask' });
    expect(await policy.decide(run(workspace, 'echo a,b; npm ci'))).toMatchObject({
      decision: 'allow',
    });
    expect(await policy.decide(run(workspace, 'npm test 2>&1 >/dev/null'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('runs nothing that acts in read-only mode, and asks nothing', async () => {
    const { workspace, policy } = await setUp({ mode: 'read-only', allow: ['run_command:ls'] });
    expect(await policy.decide(file(workspace, 'search', 'src', 'search'))).toMatchObject({
      decision: 'allow',
    });
    for (const check of [
      run(workspace, 'ls'),
      file(workspace, 'edit_file', 'src/a.ts'),
      file(workspace, 'read_file', '/etc/passwd', 'read'),
    ]) {
      expect(await policy.decide(check)).toMatchObject({
        decision: 'deny',
        decidedBy: { kind: 'policy', reason: expect.stringContaining('read-only mode') },
      });
    }
  });
});
