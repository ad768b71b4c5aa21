import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsCodeLater } from '../../src/workspace/runs-code-later.js';
import { fileCheck as file, policySetUp } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-later-attack-');
const setUp = policySetUp(base);
const EVERY_WRITE = { allow: ['write_file', 'edit_file:**'] };

describe('a write that lands where a link named for what runs code later leads asks', () => {
  it('.vscode, .mcp.json or .envrc at the top linked to an ordinary path: writing there asks', async () => {
    const { workspace, policy } = await setUp(EVERY_WRITE);
    const root = workspace.root;
    mkdirSync(join(root, 'editor'));
    symlinkSync('editor', join(root, '.vscode'));
    // Dangling: what the link names does not exist yet, as a cloned repository can hold it.
    symlinkSync('config/servers.json', join(root, '.mcp.json'));
    symlinkSync('env.sh', join(root, '.envrc'));
    // A chain of links, the last leading nowhere yet.
    symlinkSync('zed-link', join(root, '.zed'));
    symlinkSync('zed-settings', join(root, 'zed-link'));
    // A worktree's or submodule's `.git` file names its repository's folder.
    writeFileSync(join(root, '.git'), 'gitdir: repo-data\n');
    for (const path of [
      'editor/tasks.json',
      'config/servers.json',
      'env.sh',
      'zed-settings/settings.json',
      'repo-data/hooks/pre-commit',
      'repo-data/config',
    ]) {
      for (const tool of ['write_file', 'edit_file']) {
        expect([path, tool, await policy.decide(file(workspace, tool, path))]).toEqual([
          path,
          tool,
          { decision: 'ask' },
        ]);
      }
    }
    // Beside them, the same rules still allow.
    expect(await policy.decide(file(workspace, 'write_file', 'src/a.ts'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('a link in a folder above the file counts too (a nested project, opened on its own)', async () => {
    const { workspace, policy } = await setUp(EVERY_WRITE);
    const app = join(workspace.root, 'app');
    mkdirSync(join(app, 'shared'), { recursive: true });
    writeFileSync(join(app, 'shared', 'tasks.json'), '{}');
    symlinkSync('shared', join(app, '.vscode'));
    expect(await policy.decide(file(workspace, 'write_file', 'app/shared/tasks.json'))).toEqual({
      decision: 'ask',
    });
  });
});

describe('names a case-insensitive file system takes for them', () => {
  // APFS and HFS+ compare names by Unicode case folding, in which ſ (U+017F) folds to s and the
  // Kelvin sign (U+212A) to k: `.vſcode` opens `.vscode` there. toLowerCase() keeps ſ.
  it('a long s or a Kelvin sign does not hide them', () => {
    for (const path of ['.vſcode/tasks.json', '.mcp.jſon', 'a/.baſhrc']) {
      expect([path, runsCodeLater(path)]).toEqual([path, true]);
    }
  });
});

describe('the folder git runs hooks from (core.hooksPath) is what runs code later too', () => {
  // husky sets `core.hooksPath = .husky/_`, whose scripts run `.husky/<hook>`; a project may
  // name any folder. `git commit` then runs what a write put there, outside the sandbox.
  it('a write under the workspace repository’s hooksPath asks, whatever the rules allow', async () => {
    const { workspace, policy } = await setUp(EVERY_WRITE);
    const root = workspace.root;
    mkdirSync(join(root, '.git'));
    writeFileSync(
      join(root, '.git', 'config'),
      '[core]\n\trepositoryformatversion = 0\n[Core]\n\tHooksPath = "tools/hooks" ; shared hooks\n',
    );
    for (const path of ['tools/hooks/pre-commit', 'tools/hooks/sub/x.sh']) {
      expect([path, await policy.decide(file(workspace, 'write_file', path))]).toEqual([
        path,
        { decision: 'ask' },
      ]);
    }
    expect(await policy.decide(file(workspace, 'write_file', 'tools/build.ts'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('a nested repository’s, and a worktree’s through its .git file', async () => {
    const { workspace, policy } = await setUp(EVERY_WRITE);
    const root = workspace.root;
    mkdirSync(join(root, 'lib', '.git'), { recursive: true });
    writeFileSync(join(root, 'lib', '.git', 'config'), '[core]\n  hooksPath=.husky\n');
    mkdirSync(join(root, 'gitdata'));
    writeFileSync(join(root, 'gitdata', 'config'), '[core]\nhookspath = hooks-here\n');
    writeFileSync(join(root, '.git'), 'gitdir: gitdata\n');
    for (const path of ['lib/.husky/pre-commit', 'hooks-here/post-checkout']) {
      expect([path, await policy.decide(file(workspace, 'edit_file', path))]).toEqual([
        path,
        { decision: 'ask' },
      ]);
    }
  });
});

describe('what the policy reads of a repository cannot stop it', () => {
  // A sandboxed command can make a FIFO where git's config is read: opening one blocks until a
  // writer comes, and the policy runs on the agent's one thread.
  it('a FIFO for .git/config or a .git file is not opened, and the decision comes', async () => {
    const { workspace, policy } = await setUp(EVERY_WRITE);
    const root = workspace.root;
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'lib'));
    expect(
      spawnSync('mkfifo', [join(root, '.git', 'config'), join(root, 'lib', '.git')]).status,
    ).toBe(0);
    expect(await policy.decide(file(workspace, 'write_file', 'lib/a.ts'))).toMatchObject({
      decision: 'allow',
    });
  });
});
