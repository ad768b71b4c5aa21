import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
