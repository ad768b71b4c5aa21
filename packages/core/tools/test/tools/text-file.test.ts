import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LARGEST_FILE, readTextFile, writeTextFile } from '../../src/tools/text-file.js';
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
