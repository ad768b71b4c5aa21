import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTool } from 'dsh-agent';
import { approvedCall } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { createWorkspaceTools, openWorkspace } from '../../src/index.js';
import { LISTED_FILES } from '../../src/tools/list-files-tool.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-list-');
let count = 0;

async function setUp(files: readonly string[]) {
  const folder = join(base, `w${++count}`);
  mkdirSync(folder);
  for (const name of files) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), name);
  }
  const workspace = await openWorkspace(folder);
  const list = createWorkspaceTools({ workspace }).find(
    (tool) => tool.name === 'list_files',
  ) as AgentTool;
  return { folder, list };
}

async function listed(list: AgentTool, args: unknown, signal?: AbortSignal): Promise<string> {
  return (await approvedCall(list, args, { signal, toolCallId: 'l' })).output;
}

describe('list_files', () => {
  it("lists a folder's files in name order before those of its subfolders, nested rules kept to their folder", async () => {
    const { list, folder } = await setUp(['z.ts', 'a/b/c.ts', 'a/x.ts', 'M.md', 'a/b/gen.ts']);
    writeFileSync(join(folder, 'a/b/.gitignore'), 'gen.ts\n');
    writeFileSync(join(folder, 'gen.ts'), 'kept: the rule is a/b/.gitignore');
    expect((await listed(list, {})).split('\n')).toEqual([
      'M.md',
      'gen.ts',
      'z.ts',
      'a/x.ts',
      'a/b/.gitignore',
      'a/b/c.ts',
    ]);
    expect(await listed(list, { pattern: ['a/**/*.ts', '*.md'] })).toBe('M.md\na/x.ts\na/b/c.ts');
  });

  it(`lists ${LISTED_FILES} files at most and counts the rest`, async () => {
    const names = Array.from(
      { length: LISTED_FILES + 5 },
      (_, index) => `d${index % 7}/f${index}.ts`,
    );
    const { list } = await setUp([...names, 'other.md']);
    const lines = (await listed(list, { pattern: '**/*.ts' })).split('\n');
    expect(lines).toHaveLength(LISTED_FILES + 1);
    expect(lines.at(-1)).toBe('(5 more files match; narrow the pattern to see them)');
    expect(await listed(list, { pattern: '*.txt' })).toBe('(no file matches)');
  });

  it('lists a symbolic link as a file and never follows it, out of the workspace or round a loop', async () => {
    const { list, folder } = await setUp(['in/a.ts']);
    const outside = join(base, `outside${count}`);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.ts'), 's');
    symlinkSync(outside, join(folder, 'out'));
    symlinkSync(folder, join(folder, 'in', 'loop'));
    symlinkSync(join(folder, 'in', 'a.ts'), join(folder, 'same.ts'));
    expect(await listed(list, {})).toBe('out\nsame.ts\nin/a.ts\nin/loop');
  });

  it('says what is wrong with the folder or the pattern, by code', async () => {
    const { list } = await setUp(['file.ts']);
    await expect(listed(list, { path: 'missing' })).rejects.toMatchObject({
      code: 'PATH_NOT_FOUND',
    });
    await expect(listed(list, { path: 'file.ts' })).rejects.toMatchObject({ code: 'NOT_TEXT' });
    await expect(listed(list, { pattern: '' })).rejects.toMatchObject({
      code: 'ARGUMENTS_INVALID',
    });
  });

  it('stops walking once the call is cancelled, with what it listed so far', async () => {
    const names = Array.from(
      { length: 100 },
      (_, index) => `d${String(index).padStart(3, '0')}/f.ts`,
    );
    const { list } = await setUp(names);
    const controller = new AbortController();
    const all = await listed(list, {});
    // Cancelled while the walk waits for the event loop, after its first folders.
    setImmediate(() => controller.abort());
    const cut = await listed(list, {}, controller.signal);
    expect(cut.split('\n').length).toBeLessThan(names.length);
    expect(all.startsWith(cut)).toBe(true);
  });
});
