import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { removeWorkFolders, workFolder } from 'dsh-agent/testing';
import { openWorkspace } from 'dsh-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsPerFolder } from '../../src/server/tools-per-folder.js';

/** A resolver that sends each folder where `links` says (a folder maps to itself). */
function linksTo(links: Record<string, string>) {
  return async (folder: string) => links[folder] ?? folder;
}

afterEach(removeWorkFolders);

describe('toolsPerFolder', () => {
  it('opens each folder once, for every later session in it', async () => {
    const opens: string[] = [];
    const toolsFor = toolsPerFolder(async (folder) => {
      opens.push(folder);
      return { folder };
    }, linksTo({}));
    const first = await toolsFor('/a');
    const second = await toolsFor('/a');
    const other = await toolsFor('/b');
    expect(opens).toEqual(['/a', '/b']);
    expect(second).toBe(first);
    expect(other).toEqual({ folder: '/b' });
  });

  it('opens a folder anew once its path leads elsewhere (a link pointed at another folder)', async () => {
    const links: Record<string, string> = { '/project': '/disk/one' };
    const opens: string[] = [];
    const toolsFor = toolsPerFolder(async (folder) => {
      opens.push(`${folder} -> ${links[folder]}`);
      return { root: links[folder] };
    }, linksTo(links));
    expect(await toolsFor('/project')).toEqual({ root: '/disk/one' });
    links['/project'] = '/disk/two';
    expect(await toolsFor('/project')).toEqual({ root: '/disk/two' });
    expect(await toolsFor('/project')).toEqual({ root: '/disk/two' });
    expect(opens).toEqual(['/project -> /disk/one', '/project -> /disk/two']);
  });

  it('a real link relinked: the next session works in the folder it leads to now', async () => {
    const base = workFolder('dsh-tools-per-folder-');
    for (const name of ['one', 'two']) mkdirSync(join(base, name));
    const link = join(base, 'project');
    symlinkSync(join(base, 'one'), link);
    const toolsFor = toolsPerFolder(openWorkspace);
    expect((await toolsFor(link)).root).toBe(join(base, 'one'));
    rmSync(link);
    symlinkSync(join(base, 'two'), link);
    expect((await toolsFor(link)).root).toBe(join(base, 'two'));
    // Removed: the session fails as in a folder never seen.
    rmSync(link);
    await expect(toolsFor(link)).rejects.toMatchObject({ code: 'PATH_INVALID' });
  });

  it('forgets a failed open: the next session in that folder tries again', async () => {
    let attempts = 0;
    const toolsFor = toolsPerFolder(async (folder) => {
      attempts++;
      if (attempts === 1) throw new Error(`${folder} cannot be opened`);
      return { folder };
    }, linksTo({}));
    await expect(toolsFor('/flaky')).rejects.toThrow('/flaky cannot be opened');
    await expect(toolsFor('/flaky')).resolves.toEqual({ folder: '/flaky' });
    expect(attempts).toBe(2);
  });

  it('keeps the most recently used folders only', async () => {
    const opens: string[] = [];
    const toolsFor = toolsPerFolder(
      async (folder) => {
        opens.push(folder);
        return folder;
      },
      linksTo({}),
      2,
    );
    await toolsFor('/a');
    await toolsFor('/b');
    await toolsFor('/a'); // used again: /b is now the least recent
    await toolsFor('/c'); // /b goes
    await toolsFor('/a');
    await toolsFor('/b');
    expect(opens).toEqual(['/a', '/b', '/c', '/b']);
  });
});
