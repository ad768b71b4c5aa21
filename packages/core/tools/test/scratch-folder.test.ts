import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAgentCommandLine } from 'dsh-agent/command-line';
import { describe, expect, it } from 'vitest';
import { demoWorkspaceTools } from '../src/command-line.js';
import { createScratchFolder } from '../src/index.js';
import { removeStaleScratchFolders } from '../src/setup/workspace-agent-tools.js';

describe('createScratchFolder', () => {
  it('makes a folder of its own under the temporary folder, holding the files, removed on demand', () => {
    const before = process.listenerCount('exit');
    const folders = Array.from({ length: 50 }, () =>
      createScratchFolder({ 'PLAN.md': '# Plan\n', 'a/b.txt': 'b' }),
    );
    // A server may make one per session: one exit listener serves them all.
    expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1);
    const [first] = folders;
    expect(first?.folder.startsWith(join(tmpdir(), 'dsh-demo-'))).toBe(true);
    expect(readFileSync(join(first?.folder ?? '', 'a', 'b.txt'), 'utf8')).toBe('b');
    for (const scratch of folders) scratch.remove();
    expect(folders.some((scratch) => existsSync(scratch.folder))).toBe(false);
  });
});

describe('demoWorkspaceTools', () => {
  it('keeps an "always" rule in a scratch state folder of its own, gone with the demo', async () => {
    const command = parseAgentCommandLine([]);
    if (command.kind !== 'run') throw new Error('expected a run command');
    const demo = await demoWorkspaceTools(command, { 'PLAN.md': '# Plan\n' });
    expect(readFileSync(join(demo.folder, 'PLAN.md'), 'utf8')).toBe('# Plan\n');
    await demo.permissions.remember?.('write_file:PLAN.md', 'allow');
    const file = demo.permissions.files.workspace;
    expect(file.startsWith(join(tmpdir(), 'dsh-demo-state-'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('write_file:PLAN.md');
    expect(demo.permissions.rules().map((rule) => rule.rule)).toContain('write_file:PLAN.md');
    demo.remove();
    demo.remove();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(demo.folder)).toBe(false);
  });
});

describe('removeStaleScratchFolders', () => {
  it('removes the folders of demos that no longer run (killed with -9), and nothing else', () => {
    const { pid: dead } = spawnSync(process.execPath, ['-e', '']);
    const folder = (name: string) => join(tmpdir(), name);
    mkdirSync(join(folder(`dsh-demo-${dead}-stale`), 'sub'), { recursive: true });
    writeFileSync(join(folder(`dsh-demo-${dead}-stale`), 'sub', 'PLAN.md'), '# Plan\n');
    mkdirSync(folder(`dsh-demo-${process.ppid}-running`));
    mkdirSync(folder('dsh-demo-oldname'));
    // A link named as a stale folder is not followed: what it points at stays.
    const target = mkdtempSync(join(tmpdir(), 'target-'));
    writeFileSync(join(target, 'keep.txt'), 'keep');
    symlinkSync(target, folder(`dsh-demo-${dead}-link`));
    try {
      removeStaleScratchFolders();
      expect(existsSync(folder(`dsh-demo-${dead}-stale`))).toBe(false);
      expect(existsSync(folder(`dsh-demo-${process.ppid}-running`))).toBe(true);
      expect(existsSync(folder('dsh-demo-oldname'))).toBe(true);
      expect(readFileSync(join(target, 'keep.txt'), 'utf8')).toBe('keep');
      // A new scratch folder is named with this process's id.
      const scratch = createScratchFolder({});
      expect(scratch.folder.startsWith(folder(`dsh-demo-${process.pid}-`))).toBe(true);
      scratch.remove();
    } finally {
      for (const name of [`dsh-demo-${process.ppid}-running`, 'dsh-demo-oldname']) {
        rmSync(folder(name), { recursive: true, force: true });
      }
      rmSync(folder(`dsh-demo-${dead}-link`), { force: true });
      rmSync(target, { recursive: true, force: true });
    }
  });
});
