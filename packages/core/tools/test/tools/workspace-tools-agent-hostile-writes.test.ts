import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolContext } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { testFileFolder } from '../support/test-folders.js';
import { workspaceSetUp } from '../support/workspace-setup.js';

const base = testFileFolder('dsh-tools-agent-');
let count = 0;
const setUp = workspaceSetUp(base, () => ++count);

describe('edit_file and write_file, hostile cases', () => {
  const info = { signal: new AbortController().signal, toolCallId: 'c' };

  it('describe a write through a symlink as the real outside path', async () => {
    const { tool, folder } = await setUp();
    const outside = join(base, `outside${count}`);
    mkdirSync(outside);
    writeFileSync(join(outside, 'target.txt'), 'outside\n');
    symlinkSync(join(outside, 'target.txt'), join(folder, 'inside.txt'));
    expect(
      await tool('write_file').describe?.({ path: 'inside.txt', content: 'x' }, info),
    ).toMatchObject({
      kind: 'edit',
      locations: [{ path: join(outside, 'target.txt') }],
      edit: { path: join(outside, 'target.txt'), oldText: 'outside\n', newText: 'x' },
    });
    expect(
      await tool('edit_file').describe?.(
        { path: 'inside.txt', old_text: 'outside', new_text: 'x' },
        info,
      ),
    ).toMatchObject({ locations: [{ path: join(outside, 'target.txt'), line: 1 }] });
  });

  it('a file created after a create was approved is left alone', async () => {
    const { tool, folder } = await setUp();
    const args = { path: 'new.txt', content: 'mine\n' };
    const description = await tool('write_file').describe?.(args, info);
    writeFileSync(join(folder, 'new.txt'), 'theirs\n');
    await expect(
      tool('write_file').execute(args, { ...info, description } as unknown as ToolContext),
    ).rejects.toMatchObject({ code: 'FILE_CHANGED' });
    expect(readFileSync(join(folder, 'new.txt'), 'utf8')).toBe('theirs\n');
  });

  it('overwriting shows the diff, and refuses a binary file there', async () => {
    const { tool, folder } = await setUp({ 'a.txt': 'one\n' });
    writeFileSync(join(folder, 'b.bin'), Buffer.from([0, 1, 2]));
    const args = { path: 'a.txt', content: 'two\n' };
    const description = await tool('write_file').describe?.(args, info);
    const result = await tool('write_file').execute(args, {
      ...info,
      description,
    } as unknown as ToolContext);
    expect(result.output).toContain('-one\n+two');
    await expect(
      Promise.resolve().then(() =>
        tool('write_file').describe?.({ path: 'b.bin', content: 'x' }, info),
      ),
    ).rejects.toMatchObject({ code: 'NOT_TEXT' });
  });
});
