import {
  chmodSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ToolContext } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { testFileFolder } from '../support/test-folders.js';
import { callApproved as call, workspaceSetUp } from '../support/workspace-setup.js';

const setUp = workspaceSetUp(testFileFolder('dsh-tools-'));

describe('edit_file and write_file', () => {
  it('replace exact text, refuse what is missing or not unique, and show the diff', async () => {
    const { tool, folder } = await setUp({ 'a.txt': 'alpha\nbeta\ngamma\nbeta\n' });
    chmodSync(join(folder, 'a.txt'), 0o640);
    await expect(
      call(tool('edit_file'), { path: 'a.txt', old_text: 'delta', new_text: 'x' }),
    ).rejects.toMatchObject({ code: 'EDIT_NOT_FOUND' });
    await expect(
      call(tool('edit_file'), { path: 'a.txt', old_text: 'beta', new_text: 'x' }),
    ).rejects.toMatchObject({
      code: 'EDIT_NOT_UNIQUE',
      message: expect.stringContaining('2 times'),
    });
    const edited = await call(tool('edit_file'), {
      path: 'a.txt',
      old_text: 'alpha\nbeta',
      new_text: 'ALPHA\nbeta',
    });
    expect(edited.output).toContain('-alpha\n+ALPHA');
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('ALPHA\nbeta\ngamma\nbeta\n');
    expect(statSync(join(folder, 'a.txt')).mode & 0o777).toBe(0o640);
    await call(tool('edit_file'), {
      path: 'a.txt',
      old_text: 'beta',
      new_text: 'B',
      replace_all: true,
    });
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('ALPHA\nB\ngamma\nB\n');
  });

  it('count the lines before and after in words that agree with the number', async () => {
    const { tool } = await setUp({ 'one.txt': 'one\n', 'two.txt': 'a\nb\n' });
    const one = await call(tool('write_file'), { path: 'one.txt', content: 'uno\n' });
    expect(one.output).toContain('(1 line before, 1 after)');
    const two = await call(tool('write_file'), { path: 'two.txt', content: 'c\n' });
    expect(two.output).toContain('(2 lines before, 1 after)');
  });

  it('write only what was approved: a file changed meanwhile is left alone', async () => {
    const { tool, folder, workspace } = await setUp({ 'a.txt': 'one\n' });
    const args = { path: 'a.txt', old_text: 'one', new_text: 'two' };
    const signal = new AbortController().signal;
    const description = await tool('edit_file').describe?.(args, { signal, toolCallId: 'c' });
    writeFileSync(join(folder, 'a.txt'), 'someone else\n');
    await expect(
      tool('edit_file').execute(args, { description, signal } as unknown as ToolContext),
    ).rejects.toMatchObject({ code: 'FILE_CHANGED' });
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('someone else\n');
    // A link that leads elsewhere than when the change was approved: nothing is written.
    mkdirSync(join(folder, 'real'));
    writeFileSync(join(folder, 'real/b.txt'), 'one\n');
    writeFileSync(join(folder, 'other.txt'), 'one\n');
    symlinkSync(join(folder, 'real/b.txt'), join(folder, 'link.txt'));
    const linked = { path: 'link.txt', old_text: 'one', new_text: 'two' };
    const approved = await tool('edit_file').describe?.(linked, { signal, toolCallId: 'c' });
    rmSync(join(folder, 'link.txt'));
    symlinkSync(join(folder, 'other.txt'), join(folder, 'link.txt'));
    await expect(
      tool('edit_file').execute(linked, {
        description: approved,
        signal,
      } as unknown as ToolContext),
    ).rejects.toMatchObject({
      code: 'FILE_CHANGED',
      message: expect.stringContaining('leads elsewhere'),
    });
    expect(readFileSync(join(folder, 'real/b.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(folder, 'other.txt'), 'utf8')).toBe('one\n');
    const created = await call(tool('write_file'), { path: 'docs/new.md', content: '# New\n' });
    expect(created.description).toMatchObject({
      kind: 'edit',
      title: 'Create docs/new.md',
      edit: { path: join(workspace.root, 'docs/new.md'), oldText: null, newText: '# New\n' },
    });
    expect(created.output).toContain('+# New');
    expect(readFileSync(join(folder, 'docs/new.md'), 'utf8')).toBe('# New\n');
  });
});
