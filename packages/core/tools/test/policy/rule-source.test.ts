import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionCheck } from 'dsh-user-interaction/agent-tool';
import { describe, expect, it } from 'vitest';
import {
  createCommandSandbox,
  createPermissionPolicy,
  createWorkspaceTools,
  openWorkspace,
  type PermissionRuleSource,
  type RememberedRules,
  sandboxPermissionPolicy,
  type Workspace,
} from '../../src/index.js';
import { fileCheck } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-rule-source-');
let count = 0;

async function workspace(): Promise<Workspace> {
  const folder = join(base, `w${++count}`);
  mkdirSync(folder, { recursive: true });
  return openWorkspace(folder);
}

/** A store of rules in memory, as a harness keeping them in its own database would give. */
function memorySource(allow: string[] = [], deny: string[] = []) {
  let set: RememberedRules = { source: 'the harness store', allow, deny };
  const added: string[] = [];
  let reads = 0;
  const source: PermissionRuleSource = {
    read() {
      reads++;
      return [set];
    },
    async add(rule, effect) {
      added.push(`${effect} ${rule}`);
      set = {
        ...set,
        allow: effect === 'allow' ? [...set.allow, rule] : set.allow,
        deny: effect === 'deny' ? [...set.deny, rule] : set.deny,
      };
    },
  };
  return { source, added, reads: () => reads };
}

function shellCheck(workspace: Workspace, command: string, toolName = 'shell'): PermissionCheck {
  return {
    toolName,
    args: { command },
    description: { kind: 'execute', command: { command, cwd: workspace.root } },
  };
}

describe('the policy with rules from an injected source', () => {
  it('decides with the source rules, and sends an "always" answer to it, not to a file', async () => {
    const space = await workspace();
    const store = memorySource(['edit_file:src/**'], ['write_file:secrets/**']);
    const policy = createPermissionPolicy({ workspace: space, rules: store.source });
    expect(await policy.decide(fileCheck(space, 'edit_file', 'src/a.ts'))).toEqual({
      decision: 'allow',
      decidedBy: { kind: 'rule', rule: 'edit_file:src/**', source: 'the harness store' },
    });
    expect(await policy.decide(fileCheck(space, 'write_file', 'secrets/k'))).toMatchObject({
      decision: 'deny',
    });
    expect(await policy.decide(fileCheck(space, 'write_file', 'docs/a.md'))).toMatchObject({
      decision: 'ask',
    });
    await policy.remember?.('write_file:docs/*.md', 'allow');
    expect(store.added).toEqual(['allow write_file:docs/*.md']);
    expect(await policy.decide(fileCheck(space, 'write_file', 'docs/a.md'))).toMatchObject({
      decision: 'allow',
    });
    expect(policy.rules().map((rule) => `${rule.effect} ${rule.rule} (${rule.source})`)).toEqual([
      'deny write_file:secrets/** (the harness store)',
      'allow edit_file:src/** (the harness store)',
      'allow write_file:docs/*.md (the harness store)',
    ]);
    // No rules file was written: the policy has none.
    expect('files' in policy).toBe(false);
    expect(store.reads()).toBeGreaterThan(0);
  });

  it('fails a decision when the source cannot be read, rather than deciding without its rules', async () => {
    const space = await workspace();
    const broken: PermissionRuleSource = {
      read: () => {
        throw new Error('the store is down');
      },
      add: async () => {},
    };
    const policy = createPermissionPolicy({ workspace: space, rules: broken });
    await expect(policy.decide(fileCheck(space, 'edit_file', 'a.ts'))).rejects.toThrow(
      'the store is down',
    );
  });

  it('refuses to be made with neither a state folder nor a source', async () => {
    const space = await workspace();
    expect(() => createPermissionPolicy({ workspace: space })).toThrow(/stateDir.*rules/);
  });
});

describe('the command tool name is an option', () => {
  it('reads the rules of the named tool as command prefixes, and checks its calls as commands', async () => {
    const space = await workspace();
    const allow = ['shell:npm test'];
    // Under the default name, `shell:npm test` is a path glob: it allows no command.
    const byDefault = createPermissionPolicy({
      workspace: space,
      rules: memorySource(allow).source,
    });
    expect(await byDefault.decide(shellCheck(space, 'npm test'))).toMatchObject({
      decision: 'ask',
    });
    const named = createPermissionPolicy({
      workspace: space,
      rules: memorySource(allow).source,
      commandTool: 'shell',
    });
    expect(named.commandTool).toBe('shell');
    expect(await named.decide(shellCheck(space, 'npm test'))).toMatchObject({
      decision: 'allow',
      decidedBy: { rule: 'shell:npm test' },
    });
    // Every part must be allowed, as for run_command: the command analysis applies.
    expect(await named.decide(shellCheck(space, 'npm test && rm -rf ~'))).toMatchObject({
      decision: 'ask',
    });
    expect(await named.decide(shellCheck(space, 'git status'))).toEqual({
      decision: 'ask',
      allowAlways: { rule: 'shell:git status', description: expect.any(String) },
      rejectAlways: { rule: 'shell:git status', description: expect.any(String) },
    });
  });

  it('names the command tool, and the sandbox policy writes its widening rules under that name', async () => {
    const space = await workspace();
    const tools = createWorkspaceTools({ workspace: space, commandTool: 'shell' });
    expect(tools.map((tool) => tool.name)).toContain('shell');
    expect(tools.map((tool) => tool.name)).not.toContain('run_command');
    const sandbox = createCommandSandbox({
      status: { available: true, bwrap: '/usr/bin/bwrap' },
    });
    const policy = sandboxPermissionPolicy(
      createPermissionPolicy({
        workspace: space,
        rules: memorySource().source,
        commandTool: 'shell',
      }),
      { sandbox },
    );
    const check = shellCheck(space, 'curl example.org');
    const widened: PermissionCheck = {
      ...check,
      description: {
        kind: 'execute',
        command: {
          command: 'curl example.org',
          cwd: space.root,
          sandbox: { confinement: 'network' } as never,
        },
      },
    };
    expect(await policy.decide(widened)).toMatchObject({
      decision: 'ask',
      allowAlways: { rule: 'shell+network:curl example.org' },
    });
    expect(policy.commandTool).toBe('shell');
  });
});
