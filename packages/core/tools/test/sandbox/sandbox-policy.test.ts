import type { PermissionCheck } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import {
  type CommandSandbox,
  createCommandSandbox,
  createPermissionPolicy,
  sandboxPermissionPolicy,
} from '../../src/index.js';
import { makeUp, sandboxTestFolder } from './sandbox-support.js';

const base = sandboxTestFolder('dsh-sandbox-policy-');
let count = 0;

const RUNNING = createCommandSandbox({ status: { available: true, bwrap: '/usr/bin/bwrap' } });
const MISSING = createCommandSandbox({
  status: { available: false, problem: 'missing', reason: 'bwrap is not installed', fix: 'f' },
});

async function policyOf(
  sandbox: CommandSandbox,
  options: { allow?: string[]; deny?: string[]; allowSandboxed?: boolean } = {},
) {
  const made = await makeUp(base, `p${++count}`);
  const policy = sandboxPermissionPolicy(
    createPermissionPolicy({
      workspace: made.workspace,
      stateDir: made.state,
      allow: options.allow ?? [],
      deny: options.deny ?? [],
    }),
    { sandbox, allowSandboxed: options.allowSandboxed === true },
  );
  const check = (command: string, widening?: 'network' | 'none'): PermissionCheck => {
    const sandboxField = sandbox.confinement(widening);
    return {
      toolName: 'run_command',
      args: { command },
      description: {
        kind: 'execute',
        command: {
          command,
          cwd: made.workspace.root,
          ...(sandboxField !== undefined && { sandbox: sandboxField }),
        },
      },
    };
  };
  return { policy, check };
}

describe('leaving the sandbox is its own question', () => {
  it('is asked even where an allow rule would allow the command, and "always" names the exact widening', async () => {
    const { policy, check } = await policyOf(RUNNING, { allow: ['run_command'] });
    expect(await policy.decide(check('curl example.com'))).toMatchObject({ decision: 'allow' });
    expect(await policy.decide(check('curl example.com', 'network'))).toEqual({
      decision: 'ask',
      allowAlways: {
        rule: 'run_command+network:curl example.com',
        description: 'Always run exactly `curl example.com` with the network, in this session',
      },
    });
    expect(await policy.decide(check('rm -rf ~/x', 'none'))).toEqual({
      decision: 'ask',
      allowAlways: {
        rule: 'run_command+unsandboxed:rm -rf ~/x',
        description:
          'Always run exactly `rm -rf ~/x` outside the sandbox, with your full powers, in this session',
      },
    });
  });

  it('after "always", allows that command with that widening only', async () => {
    const { policy, check } = await policyOf(RUNNING);
    await policy.remember?.('run_command+network:npm install', 'allow');
    expect(await policy.decide(check('npm install', 'network'))).toMatchObject({
      decision: 'allow',
      decidedBy: { kind: 'rule', rule: 'run_command+network:npm install' },
    });
    expect(await policy.decide(check('npm install', 'none'))).toMatchObject({ decision: 'ask' });
    expect(await policy.decide(check('npm install x', 'network'))).toMatchObject({
      decision: 'ask',
    });
    expect(await policy.decide(check('npm install'))).toMatchObject({ decision: 'ask' });
  });

  it('is still denied by a deny rule', async () => {
    const { policy, check } = await policyOf(RUNNING, { deny: ['run_command:curl'] });
    expect(await policy.decide(check('curl x', 'network'))).toMatchObject({ decision: 'deny' });
  });
});

describe('--permission-mode allow-sandboxed', () => {
  it('runs a command that stays in the sandbox unasked, unless a rule denies it', async () => {
    const { policy, check } = await policyOf(RUNNING, {
      allowSandboxed: true,
      deny: ['run_command:rm'],
    });
    expect(await policy.decide(check('make build'))).toEqual({
      decision: 'allow',
      decidedBy: {
        kind: 'policy',
        reason: 'it runs in the sandbox (--permission-mode allow-sandboxed)',
      },
    });
    expect(await policy.decide(check('rm -rf build'))).toMatchObject({ decision: 'deny' });
    expect(await policy.decide(check('make build', 'network'))).toMatchObject({
      decision: 'ask',
    });
  });

  it('never applies without the sandbox, nor when it is off', async () => {
    for (const sandbox of [
      MISSING,
      createCommandSandbox({ choice: 'off', status: { available: true, bwrap: '/usr/bin/bwrap' } }),
    ]) {
      const { policy, check } = await policyOf(sandbox, { allowSandboxed: true });
      expect(await policy.decide(check('make build'))).toMatchObject({ decision: 'ask' });
    }
  });
});
