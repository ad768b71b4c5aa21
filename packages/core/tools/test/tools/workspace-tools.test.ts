import { execFileSync } from 'node:child_process';
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
import type { AgentTool, ToolContext } from 'dsh-agent';
import { approvedCall } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { createWorkspaceTools, openWorkspace } from '../../src/index.js';
import { expectGone, testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-tools-');
let count = 0;

async function setUp(files: Record<string, string | Buffer> = {}) {
  const folder = join(base, `w${++count}`);
  mkdirSync(folder);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  const workspace = await openWorkspace(folder);
  const tools = new Map(createWorkspaceTools({ workspace }).map((tool) => [tool.name, tool]));
  return { workspace, folder, tool: (name: string) => tools.get(name) as AgentTool };
}

/** Describes then runs a call, as the loop does once it is approved. */
function call(tool: AgentTool, args: unknown, signal?: AbortSignal) {
  return approvedCall(tool, args, { signal, toolCallId: 'c' });
}

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

describe('run_command', () => {
  it('refuses, before anyone is asked, a command no program can be given: a NUL, or too long', async () => {
    const { tool } = await setUp();
    // Described as the loop does, asynchronously: a refusal is a rejected description.
    const describe = async (command: string) =>
      tool('run_command').describe?.(
        { command },
        { signal: new AbortController().signal, toolCallId: 'c' },
      );
    await expect(describe('echo x\u0000; rm -rf y')).rejects.toMatchObject({
      code: 'ARGUMENTS_INVALID',
    });
    // 131,071 bytes is the longest argument Linux passes to bash: it runs.
    const longest = `true #${'é'.repeat(65_532)}x`;
    expect(Buffer.byteLength(longest)).toBe(131_071);
    expect((await call(tool('run_command'), { command: longest })).output).toMatch(
      /^Exit status 0\./,
    );
    await expect(describe(`${longest}x`)).rejects.toMatchObject({ code: 'ARGUMENTS_INVALID' });
  });

  it('runs in the workspace with no input, and reports the exit status', async () => {
    const { tool, workspace } = await setUp({ 'a.txt': 'x' });
    const result = await call(tool('run_command'), {
      command: 'pwd; ls; read line || echo no-input; exit 3',
    });
    expect(result.output).toBe(`Exit status 3.\n${workspace.root}\na.txt\nno-input\n`);
    expect(result).toMatchObject({ details: { exit: { code: 3, signal: null } } });
    expect(result.description).toEqual({
      kind: 'execute',
      title: 'Run pwd; ls; read line || echo no-input; exit 3',
      locations: [{ path: workspace.root }],
      command: { command: 'pwd; ls; read line || echo no-input; exit 3', cwd: workspace.root },
    });
  });

  it('ends a command that never ends at its time limit, with everything it started', async () => {
    const { tool, folder } = await setUp();
    const result = await call(tool('run_command'), {
      command: 'sleep 300 & echo $! > child.pid; sleep 300',
      timeout: 1,
    });
    expect(result.output).toMatch(/^Ended by SIGTERM: it ran longer than its time limit of 1 s\./);
    await expectGone(Number(readFileSync(join(folder, 'child.pid'), 'utf8')));
  });

  it('ends the whole process group when the call is cancelled', async () => {
    const { tool, folder } = await setUp();
    const controller = new AbortController();
    const running = call(
      tool('run_command'),
      { command: 'sleep 300 & echo $! > child.pid; echo started; sleep 300' },
      controller.signal,
    );
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        if (readFileSync(join(folder, 'child.pid'), 'utf8').trim() !== '') break;
      } catch {}
      await new Promise((resolve) => setImmediate(resolve));
    }
    controller.abort();
    const result = await running;
    expect(result.output).toMatch(/^Ended by SIGTERM: the turn was cancelled\./);
    await expectGone(Number(readFileSync(join(folder, 'child.pid'), 'utf8')));
  });

  it('keeps the start and the end of a flood of output, in bounded memory', async () => {
    const { tool } = await setUp();
    const result = await call(tool('run_command'), {
      command: 'echo FIRST; head -c 50000000 /dev/zero | tr "\\0" x; echo; echo LAST',
    });
    expect(result.output.startsWith('Exit status 0.\nFIRST\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('LAST')).toBe(true);
    expect(result.output).toMatch(/\[… \d+ bytes of output not kept …\]/);
    expect(result.output.length).toBeLessThan(40_000);
  });
});

it('needs a shell on this machine', () => {
  expect(execFileSync('bash', ['-c', 'echo ok']).toString()).toBe('ok\n');
});
