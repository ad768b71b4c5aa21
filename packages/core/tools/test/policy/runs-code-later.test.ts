import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePath } from '../../src/index.js';
import { runsCodeLater } from '../../src/workspace/runs-code-later.js';
import { fileCheck as file, policySetUp } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-runs-later-');
const setUp = policySetUp(base);

/** Writes that change what git, an editor, a shell, direnv or the agent runs later. */
const RUN_LATER = [
  '.git/hooks/pre-commit',
  '.git/config',
  'vendor/lib/.git/config',
  '.envrc',
  'deep/folder/.envrc',
  '.bashrc',
  '.vscode/tasks.json',
  'app/.vscode/settings.json',
  '.zed/settings.json',
  '.idea/workspace.xml',
  '.mcp.json',
  '.GIT/hooks/pre-commit',
  '.Zed/tasks.json',
];

describe('a write to what runs code later always asks, whatever the rules allow', () => {
  it('asks, offering no "always", under rules that allow every write and edit', async () => {
    const { workspace, policy } = await setUp({ allow: ['write_file', 'edit_file:**'] });
    for (const path of RUN_LATER) {
      for (const tool of ['write_file', 'edit_file']) {
        expect([path, tool, await policy.decide(file(workspace, tool, path))]).toEqual([
          path,
          tool,
          { decision: 'ask' },
        ]);
      }
    }
    // The same rules still allow the rest, and reads of those files run as before.
    for (const path of ['src/a.ts', '.gitignore', '.github/workflows/ci.yml', 'git/hooks.ts']) {
      expect(await policy.decide(file(workspace, 'write_file', path))).toMatchObject({
        decision: 'allow',
      });
    }
    expect(await policy.decide(file(workspace, 'read_file', '.git/config', 'read'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('without a rule, asks without offering "always" for them', async () => {
    const { workspace, policy } = await setUp();
    expect(await policy.decide(file(workspace, 'edit_file', '.vscode/settings.json'))).toEqual({
      decision: 'ask',
    });
  });

  it('a deny rule still refuses them', async () => {
    const { workspace, policy } = await setUp({
      allow: ['write_file'],
      deny: ['write_file:.envrc'],
    });
    expect(await policy.decide(file(workspace, 'write_file', '.envrc'))).toMatchObject({
      decision: 'deny',
    });
  });

  it('a link to .git is followed before the policy sees the path', async () => {
    const { workspace, policy } = await setUp({ allow: ['write_file'] });
    mkdirSync(join(workspace.root, '.git', 'hooks'), { recursive: true });
    symlinkSync('.git', join(workspace.root, 'cfg'));
    const resolved = await resolvePath(workspace, 'cfg/hooks/post-checkout');
    expect(
      await policy.decide({
        toolName: 'write_file',
        args: { path: 'cfg/hooks/post-checkout' },
        description: { kind: 'edit', locations: [{ path: resolved.path }] },
      }),
    ).toEqual({ decision: 'ask' });
  });
});

describe('runsCodeLater', () => {
  it('names the folders at any depth and the start-up files in any folder, without case', () => {
    expect(RUN_LATER.every(runsCodeLater)).toBe(true);
    for (const path of ['.git', '.vscode', 'a/.idea']) expect(runsCodeLater(path)).toBe(true);
    for (const path of ['src/git.ts', '.gitignore', 'a.envrc', '.envrc.example', 'mcp.json']) {
      expect(runsCodeLater(path)).toBe(false);
    }
  });
});
