import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LARGEST_FILE,
  readAtMost,
  readTextFile,
  writeTextFile,
} from '../../src/tools/text-file.js';
import { testFileFolder } from '../support/test-folders.js';

const folder = testFileFolder('dsh-text-file-');

describe('reading and writing a text file', () => {
  it('reads every size up to the limit whole, and refuses one byte more', async () => {
    const file = join(folder, 'sizes.txt');
    for (const size of [0, 1, 3, 65_536, 65_537, LARGEST_FILE]) {
      writeFileSync(file, 'a'.repeat(size));
      expect((await readTextFile(file))?.length, `${size} bytes`).toBe(size);
    }
    writeFileSync(file, 'a'.repeat(LARGEST_FILE + 1));
    await expect(readTextFile(file)).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('writes text of every size back exactly, multibyte included', async () => {
    const file = join(folder, 'written.txt');
    for (const text of ['', 'é', 'line\n'.repeat(20_000), '字'.repeat(1_000_000)]) {
      await writeTextFile(file, text);
      expect(await readTextFile(file)).toBe(text);
    }
  });
});

describe('reading at most the limit', () => {
  it('stops at `most` bytes whatever the size the file said it had', () => {
    const file = join(folder, 'grown.txt');
    writeFileSync(file, 'b'.repeat(100));
    const fd = openSync(file, 'r');
    try {
      // Said to be empty when opened (as a file that grows after its fstat): cut at the limit.
      expect(readAtMost(fd, 0, 10)).toEqual(Buffer.from('b'.repeat(10)));
    } finally {
      closeSync(fd);
    }
    const again = openSync(file, 'r');
    try {
      expect(readAtMost(again, 0, 1_000).length).toBe(100);
    } finally {
      closeSync(again);
    }
  });
});
