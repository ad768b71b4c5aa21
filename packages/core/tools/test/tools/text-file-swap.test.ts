// A path replaced between the read's `stat` and its `open`: what was opened is judged again from
// its own `fstat`. The swap is made inside `openSync` itself (node:fs patched, and the patch given
// to ES module importers with `syncBuiltinESMExports`), so the race is won every time.
import { execFileSync } from 'node:child_process';
import fs, { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LARGEST_FILE, readTextFile } from '../../src/tools/text-file.js';
import { testFileFolder } from '../support/test-folders.js';

const folder = testFileFolder('dsh-text-file-swap-');
const originalOpenSync = fs.openSync;

/** Runs `swap` once, just before `path` is next opened. */
function swapBeforeOpen(path: string, swap: () => void): void {
  fs.openSync = ((...args: Parameters<typeof fs.openSync>) => {
    if (args[0] === path) {
      fs.openSync = originalOpenSync;
      syncBuiltinESMExports();
      swap();
    }
    return originalOpenSync(...args);
  }) as typeof fs.openSync;
  syncBuiltinESMExports();
}

afterEach(() => {
  fs.openSync = originalOpenSync;
  syncBuiltinESMExports();
});

describe('a file replaced between its stat and its open', () => {
  it('is refused when a FIFO took its place, without waiting for a writer', async () => {
    const file = join(folder, 'became-fifo.txt');
    writeFileSync(file, 'plain text\n');
    let swapped = false;
    swapBeforeOpen(file, () => {
      rmSync(file);
      execFileSync('mkfifo', [file]);
      swapped = true;
    });
    await expect(readTextFile(file)).rejects.toMatchObject({
      code: 'NOT_TEXT',
      message: `${file} is not a regular file.`,
    });
    expect(swapped).toBe(true);
  });

  it('is refused when a file over the limit took its place', async () => {
    const file = join(folder, 'became-large.txt');
    writeFileSync(file, 'small\n');
    swapBeforeOpen(file, () => {
      rmSync(file);
      writeFileSync(file, 'a'.repeat(LARGEST_FILE + 1));
    });
    await expect(readTextFile(file)).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message: `${file} has ${LARGEST_FILE + 1} bytes, more than the ${LARGEST_FILE} a tool reads or writes.`,
    });
  });

  it('is read as it is now when another regular file took its place', async () => {
    const file = join(folder, 'became-other.txt');
    writeFileSync(file, 'before\n');
    swapBeforeOpen(file, () => {
      rmSync(file);
      writeFileSync(file, 'after, and longer\n');
    });
    expect(await readTextFile(file)).toBe('after, and longer\n');
  });
});

describe('a file replaced by a symbolic link after its path was resolved', () => {
  it('is not read through the link, which could lead out of the workspace', async () => {
    const file = join(folder, 'became-link.txt');
    const outside = join(folder, 'outside-secret.txt');
    writeFileSync(file, 'inside\n');
    writeFileSync(outside, 'TOKEN=hunter2\n');
    swapBeforeOpen(file, () => {
      rmSync(file);
      symlinkSync(outside, file);
    });
    await expect(readTextFile(file)).rejects.toMatchObject({ code: 'FILE_CHANGED' });
  });
});
