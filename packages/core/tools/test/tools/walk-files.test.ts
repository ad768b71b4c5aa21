import { mkdirSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FoundFile, walkFiles } from '../../src/tools/walk-files.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-walk-');
let count = 0;

function tree(files: readonly string[]): string {
  const folder = join(base, `w${++count}`);
  mkdirSync(folder);
  for (const name of files) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), name);
  }
  return folder;
}

async function batches(root: string, stop?: () => boolean): Promise<(readonly FoundFile[])[]> {
  const found: (readonly FoundFile[])[] = [];
  for await (const files of walkFiles(root, stop)) found.push(files);
  return found;
}

describe('walkFiles', () => {
  it("gives one folder's files at a time, in name order, before its subfolders', and no empty list", async () => {
    const root = tree(['b.ts', 'a/x.ts', 'a/y/z.ts', 'B.ts', 'c/.gitignore', 'c/gen.ts']);
    mkdirSync(join(root, 'empty'));
    writeFileSync(join(root, 'c/.gitignore'), 'gen.ts\n');
    const found = await batches(root);
    expect(found.map((files) => files.map((file) => file.relative))).toEqual([
      ['B.ts', 'b.ts'],
      ['a/x.ts'],
      ['a/y/z.ts'],
      ['c/.gitignore'],
    ]);
    for (const file of found.flat()) expect(file.path).toBe(join(root, file.relative));
  });

  it('gives the same paths for a root written with a trailing separator', async () => {
    const root = tree(['a.ts', 'd/b.ts']);
    const found = (await batches(`${root}${sep}`)).flat();
    expect(found.map((file) => file.path)).toEqual([join(root, 'a.ts'), join(root, 'd', 'b.ts')]);
  });

  it("lets a folder's `!rule` keep what its parent's rules ignore: the deepest .gitignore decides, as in git", async () => {
    const root = tree(['a.log', 'sub/keep.log', 'sub/x.log', 'sub/deeper/keep.log']);
    writeFileSync(join(root, '.gitignore'), '*.log\n');
    writeFileSync(join(root, 'sub/.gitignore'), '!keep.log\n');
    const found = (await batches(root)).flat().map((file) => file.relative);
    expect(found).toEqual(['.gitignore', 'sub/.gitignore', 'sub/keep.log', 'sub/deeper/keep.log']);
  });

  it('stops between two folders once told to', async () => {
    const root = tree(['a.ts', 'd/b.ts', 'e/c.ts']);
    const once: (readonly FoundFile[])[] = [];
    for await (const files of walkFiles(root, () => once.length > 0)) once.push(files);
    expect(once.map((files) => files.map((file) => file.relative))).toEqual([['a.ts']]);
  });
});
