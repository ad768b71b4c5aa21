import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorkspace, resolvePath } from '../src/index.js';
import { testFileFolder } from './support/test-folders.js';

const base = testFileFolder('dsh-tools-ws-');

describe('resolvePath', () => {
  const project = join(base, 'project');
  const outside = join(base, 'outside');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(project, 'src', 'a.ts'), 'a');
  writeFileSync(join(outside, 'secret'), 's');
  symlinkSync(outside, join(project, 'link-out'));
  symlinkSync(join(project, 'src'), join(project, 'link-in'));
  symlinkSync(join(project, 'loop-b'), join(project, 'loop-a'));
  symlinkSync(join(project, 'loop-a'), join(project, 'loop-b'));

  it('collapses .. and follows symlinks before saying whether a path is inside', async () => {
    const workspace = await openWorkspace(project);
    expect(await resolvePath(workspace, 'src/a.ts')).toMatchObject({
      relative: 'src/a.ts',
      inside: true,
      exists: true,
    });
    expect(await resolvePath(workspace, 'src/../../outside/secret')).toMatchObject({
      path: join(workspace.root, '..', 'outside', 'secret').replace(/\/project\/\.\./, ''),
      inside: false,
      relative: undefined,
    });
    expect((await resolvePath(workspace, 'link-out/secret')).inside).toBe(false);
    expect((await resolvePath(workspace, 'link-out/new-file')).inside).toBe(false);
    expect(await resolvePath(workspace, 'link-in/a.ts')).toMatchObject({
      relative: 'src/a.ts',
      inside: true,
    });
    expect(await resolvePath(workspace, 'src/new/deeper.ts')).toMatchObject({
      relative: 'src/new/deeper.ts',
      inside: true,
      exists: false,
    });
    expect((await resolvePath(workspace, join(outside, 'secret'))).inside).toBe(false);
    expect((await resolvePath(workspace, '.')).relative).toBe('.');
  });

  it('refuses what cannot be a path', async () => {
    const workspace = await openWorkspace(project);
    await expect(resolvePath(workspace, 'a\u0000b')).rejects.toMatchObject({
      code: 'PATH_INVALID',
    });
    await expect(resolvePath(workspace, '')).rejects.toMatchObject({ code: 'PATH_INVALID' });
    await expect(resolvePath(workspace, 42)).rejects.toMatchObject({ code: 'PATH_INVALID' });
    await expect(resolvePath(workspace, 'loop-a/x')).rejects.toMatchObject({
      code: 'PATH_INVALID',
    });
    await expect(openWorkspace(join(project, 'src', 'a.ts'))).rejects.toMatchObject({
      code: 'PATH_INVALID',
    });
  });
});
