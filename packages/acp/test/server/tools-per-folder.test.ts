import { describe, expect, it } from 'vitest';
import { toolsPerFolder } from '../../src/server/tools-per-folder.js';

describe('toolsPerFolder', () => {
  it('opens each folder once, for every session in it, sessions at the same moment included', async () => {
    const opens: string[] = [];
    const toolsFor = toolsPerFolder(async (folder) => {
      opens.push(folder);
      return { folder };
    });
    const [first, second] = await Promise.all([toolsFor('/a'), toolsFor('/a')]);
    const third = await toolsFor('/a');
    const other = await toolsFor('/b');
    expect(opens).toEqual(['/a', '/b']);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(other).toEqual({ folder: '/b' });
  });

  it('forgets a failed open: the next session in that folder tries again', async () => {
    let attempts = 0;
    const toolsFor = toolsPerFolder(async (folder) => {
      attempts++;
      if (attempts === 1) throw new Error(`${folder} cannot be opened`);
      return { folder };
    });
    await expect(toolsFor('/gone')).rejects.toThrow('/gone cannot be opened');
    await expect(toolsFor('/gone')).resolves.toEqual({ folder: '/gone' });
    expect(attempts).toBe(2);
  });

  it('keeps the most recently used folders only', async () => {
    const opens: string[] = [];
    const toolsFor = toolsPerFolder(async (folder) => {
      opens.push(folder);
      return folder;
    }, 2);
    await toolsFor('/a');
    await toolsFor('/b');
    await toolsFor('/a'); // used again: /b is now the least recent
    await toolsFor('/c'); // /b goes
    await toolsFor('/a');
    await toolsFor('/b');
    expect(opens).toEqual(['/a', '/b', '/c', '/b']);
  });
});
