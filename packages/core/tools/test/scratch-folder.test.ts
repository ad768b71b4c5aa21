import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAgentCommandLine } from 'dsh-agent/command-line';
import { describe, expect, it } from 'vitest';
import { demoWorkspaceTools } from '../src/command-line.js';
import { createScratchFolder } from '../src/index.js';

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
