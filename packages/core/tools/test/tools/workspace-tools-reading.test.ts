import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testFileFolder } from '../support/test-folders.js';
import { callApproved as call, workspaceSetUp } from '../support/workspace-setup.js';

const base = testFileFolder('dsh-tools-');
let count = 0;
const setUp = workspaceSetUp(base, () => ++count);

describe('read_file', () => {
  it('reads with line numbers, a range, and says what it left out', async () => {
    const lines = Array.from({ length: 2_500 }, (_, index) => `line ${index + 1}`).join('\n');
    const { tool, workspace } = await setUp({
      'a.txt': 'one\ntwo\nthree\n',
      'big.txt': `${lines}\n`,
    });
    const read = await call(tool('read_file'), { path: 'a.txt' });
    expect(read.output).toBe('1\tone\n2\ttwo\n3\tthree');
    expect(read.description).toEqual({
      kind: 'read',
      title: 'Read a.txt',
      locations: [{ path: join(workspace.root, 'a.txt'), line: 1 }],
    });
    expect(
      (await call(tool('read_file'), { path: 'a.txt', start_line: 2, end_line: 2 })).output,
    ).toBe('2\ttwo');
    const big = await call(tool('read_file'), { path: 'big.txt' });
    expect(big.output.split('\n')).toHaveLength(2_001);
    expect(big.output).toMatch(
      /\(lines 2001–2500 of 2500 not shown: call read_file again with start_line 2001\)$/,
    );
  });

  it('refuses binary files, folders, oversized files and missing ones, saying so', async () => {
    const { tool, folder } = await setUp({
      'bin.dat': Buffer.from([1, 0, 2, 255]),
      'bad.txt': Buffer.from([0xc3, 0x28]),
      'dir/x': 'x',
    });
    writeFileSync(join(folder, 'huge.txt'), Buffer.alloc(9 * 1024 * 1024, 97));
    await expect(call(tool('read_file'), { path: 'bin.dat' })).rejects.toMatchObject({
      code: 'NOT_TEXT',
    });
    await expect(call(tool('read_file'), { path: 'bad.txt' })).rejects.toMatchObject({
      code: 'NOT_TEXT',
    });
    await expect(call(tool('read_file'), { path: 'dir' })).rejects.toMatchObject({
      code: 'NOT_TEXT',
      message: expect.stringContaining('list_files'),
    });
    await expect(call(tool('read_file'), { path: 'huge.txt' })).rejects.toMatchObject({
      code: 'TOO_LARGE',
    });
    await expect(call(tool('read_file'), { path: 'nope.txt' })).rejects.toMatchObject({
      code: 'PATH_NOT_FOUND',
    });
    // A FIFO is refused from its stat, never opened: opening it would wait for a writer.
    execFileSync('mkfifo', [join(folder, 'pipe')]);
    await expect(call(tool('read_file'), { path: 'pipe' })).rejects.toMatchObject({
      code: 'NOT_TEXT',
      message: expect.stringContaining('not a regular file'),
    });
    await expect(
      call(tool('edit_file'), { path: 'pipe', old_text: 'a', new_text: 'b' }),
    ).rejects.toMatchObject({ code: 'NOT_TEXT' });
  });

  it('describes a path that leaves the workspace by .. or a symlink as the real outside path', async () => {
    const { tool, folder } = await setUp();
    const outside = join(base, `outside${count}`);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret'), 's');
    symlinkSync(outside, join(folder, 'link'));
    const viaLink = await tool('read_file').describe?.(
      { path: 'link/secret' },
      { signal: new AbortController().signal, toolCallId: 'c' },
    );
    expect(viaLink).toMatchObject({
      locations: [{ path: join(outside, 'secret') }],
      title: `Read ${join(outside, 'secret')}`,
    });
    const viaDots = await tool('read_file').describe?.(
      { path: `../outside${count}/secret` },
      { signal: new AbortController().signal, toolCallId: 'c' },
    );
    expect(viaDots).toMatchObject({ locations: [{ path: join(outside, 'secret') }] });
  });
});

describe('list_files and search', () => {
  it('list files sorted, honouring every .gitignore, never .git', async () => {
    const { tool } = await setUp({
      '.gitignore': 'dist/\n*.log\n',
      'src/a.ts': 'a',
      'src/b.ts': 'b',
      'src/.gitignore': 'gen.ts\n',
      'src/gen.ts': 'g',
      'dist/out.js': 'o',
      'x.log': 'l',
      '.git/config': 'c',
      'README.md': 'r',
    });
    expect((await call(tool('list_files'), {})).output).toBe(
      ['.gitignore', 'README.md', 'src/.gitignore', 'src/a.ts', 'src/b.ts'].join('\n'),
    );
    expect((await call(tool('list_files'), { pattern: '**/*.ts' })).output).toBe(
      'src/a.ts\nsrc/b.ts',
    );
    expect((await call(tool('list_files'), { path: 'src', pattern: ['*.ts'] })).output).toBe(
      'a.ts\nb.ts',
    );
    await expect(call(tool('list_files'), { pattern: [3] })).rejects.toMatchObject({
      code: 'ARGUMENTS_INVALID',
    });
  });

  it('search finds lines by regular expression with file and line, skipping binary and ignored files, capped', async () => {
    const many = Array.from({ length: 300 }, () => 'needle').join('\n');
    const { tool } = await setUp({
      '.gitignore': 'ignored.txt\n',
      'src/a.ts': 'const a = 1;\n// TODO: fix\nexport {};\n',
      'ignored.txt': 'TODO hidden',
      'bin.dat': Buffer.concat([Buffer.from('TODO'), Buffer.from([0])]),
      'many.txt': many,
    });
    expect((await call(tool('search'), { pattern: 'TODO' })).output).toBe(
      'src/a.ts:2: // TODO: fix',
    );
    expect((await call(tool('search'), { pattern: '^export', glob: '**/*.ts' })).output).toBe(
      'src/a.ts:3: export {};',
    );
    expect((await call(tool('search'), { pattern: 'todo', case_insensitive: true })).output).toBe(
      'src/a.ts:2: // TODO: fix',
    );
    const capped = await call(tool('search'), { pattern: 'needle' });
    expect(capped.output.split('\n')).toHaveLength(201);
    expect(capped.output).toMatch(/more than 200 matches/);
    await expect(call(tool('search'), { pattern: '(' })).rejects.toMatchObject({
      code: 'ARGUMENTS_INVALID',
    });
  });

  it('search reads no file through a symbolic link: a read inside the workspace runs unasked', async () => {
    const { tool, folder } = await setUp({ 'src/a.ts': 'TOKEN inside\n' });
    const outside = join(base, `outside${count}`);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'TOKEN=hunter2\n');
    symlinkSync(join(outside, 'secret.txt'), join(folder, 'notes.txt'));
    symlinkSync(join(folder, 'src/a.ts'), join(folder, 'same.ts'));
    expect((await call(tool('search'), { pattern: 'TOKEN' })).output).toBe(
      'src/a.ts:1: TOKEN inside',
    );
  });
});
