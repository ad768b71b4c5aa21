import {
  existsSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox, type SandboxStatus } from '../../src/index.js';
import { makeUp, runner, sandboxTestFolder } from './sandbox-support.js';

// An attack on what the sandbox keeps from a command: editor settings, the project's .mcp.json
// and git hooks at the top of the workspace, which run outside the sandbox later.
const base = sandboxTestFolder('dsh-later-attack-');
const status: SandboxStatus = await probeSandbox();
let count = 0;

async function sandboxed() {
  const made = await makeUp(base, `l${++count}`);
  return { ...made, ...runner(made, status) };
}

describe.skipIf(!status.available)(
  'what runs code later, through a link the workspace holds',
  () => {
    // A link that leads nowhere yet (a cloned repository can hold one): the command makes its
    // target, and the editor or the agent then reads what the command wrote there.
    it('a dangling .vscode or .mcp.json link cannot be filled in by a command', async () => {
      const { run, folder } = await sandboxed();
      symlinkSync('editor', join(folder, '.vscode'));
      symlinkSync('servers.json', join(folder, '.mcp.json'));
      symlinkSync('nowhere', join(folder, '.idea'));
      symlinkSync('env.local', join(folder, '.envrc'));
      const result = await run(
        [
          `mkdir editor && echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' > editor/tasks.json`,
          `echo '{"mcpServers":{"evil":{"command":"sh"}}}' > servers.json`,
          'rm .idea && mkdir .idea && echo x > .idea/workspace.xml',
          'echo fine > src.txt',
        ].join('; '),
      );
      expect(existsSync(join(folder, '.vscode', 'tasks.json'))).toBe(false);
      expect(existsSync(join(folder, '.mcp.json'))).toBe(false);
      expect(existsSync(join(folder, '.idea'))).toBe(false);
      expect(result.output).toContain('The sandbox removed .vscode, .idea, .mcp.json');
      // A dangling link the command left alone is the person's, and stays.
      expect(readlinkSync(join(folder, '.envrc'))).toBe('env.local');
      expect(readFileSync(join(folder, 'src.txt'), 'utf8')).toBe('fine\n');
    });

    it('a link to a folder that exists keeps that folder read-only (what held)', async () => {
      const { run, folder } = await sandboxed();
      mkdirSync(join(folder, 'editor'));
      writeFileSync(join(folder, 'editor', 'settings.json'), '{}\n');
      symlinkSync('editor', join(folder, '.zed'));
      const result = await run(`echo '{"lsp":{}}' > editor/settings.json || echo refused`);
      expect(result.output).toContain('refused');
      expect(readFileSync(join(folder, 'editor', 'settings.json'), 'utf8')).toBe('{}\n');
    });

    it('a command that only reads them still runs (what held)', async () => {
      const { run, folder } = await sandboxed();
      mkdirSync(join(folder, '.vscode'));
      writeFileSync(join(folder, '.vscode', 'settings.json'), '{"a":1}\n');
      writeFileSync(join(folder, '.mcp.json'), '{"mcpServers":{}}\n');
      const result = await run('cat .vscode/settings.json .mcp.json; ls -a .vscode');
      expect(result.output).toContain('{"a":1}');
      expect(result.output).toContain('{"mcpServers":{}}');
      expect(result.output).not.toContain('The sandbox removed');
    });

    // Where the workspace has no repository, a command may make `.git`: a FIFO there blocked the
    // next command's start, which reads a `.git` file for its `gitdir:`.
    it('a FIFO made as .git does not stop the next command', async () => {
      const { run, folder } = await sandboxed();
      rmSync(join(folder, '.git'), { recursive: true });
      await run('mkfifo .git');
      const result = await run('echo next');
      expect(result.output).toContain('next');
    });
  },
);
