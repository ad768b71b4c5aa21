import { chmodSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/index.js';
import { bwrapArguments } from '../../src/sandbox/bwrap-arguments.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-bwrap-arguments-');

const LAYOUT = {
  workspace: '/home/ada/project',
  cwd: '/home/ada/project',
  hidden: [
    { path: '/home/ada/.ssh', folder: true },
    { path: '/home/ada/.netrc', folder: false },
  ],
  readOnly: ['/home/ada/project/.git/hooks'],
  network: false,
};

describe('bwrapArguments', () => {
  it('lays each mount over those before it: system, workspace, read-only inside, hidden', () => {
    expect(bwrapArguments(LAYOUT, 'make')).toEqual([
      '--die-with-parent',
      '--new-session',
      '--unshare-pid',
      // No capability, even as root: none to unmount what hides, nor to remount / writable.
      '--cap-drop',
      'ALL',
      '--unshare-net',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--bind',
      '/home/ada/project',
      '/home/ada/project',
      // The folder between the workspace and what is read-only in it: a mount, so no rename.
      '--bind',
      '/home/ada/project/.git',
      '/home/ada/project/.git',
      '--ro-bind',
      '/home/ada/project/.git/hooks',
      '/home/ada/project/.git/hooks',
      '--tmpfs',
      '/home/ada/.ssh',
      '--remount-ro',
      '/home/ada/.ssh',
      '--ro-bind',
      '/dev/null',
      '/home/ada/.netrc',
      '--chdir',
      '/home/ada/project',
      '--json-status-fd',
      '3',
      '--',
      'bash',
      '-c',
      'make',
    ]);
    expect(bwrapArguments({ ...LAYOUT, network: true }, 'make')).not.toContain('--unshare-net');
  });

  it('hides a folder holding the workspace before the workspace shows through it, and a hidden path inside the workspace after', () => {
    const args = bwrapArguments(
      {
        ...LAYOUT,
        workspace: '/home/ada/.kube/project',
        cwd: '/home/ada/.kube/project',
        hidden: [
          { path: '/home/ada/.kube', folder: true },
          { path: '/home/ada/.kube/project/.ssh', folder: true },
          { path: '/tmp/elsewhere', folder: true },
        ],
        readOnly: [],
      },
      'true',
    ).join(' ');
    expect(args).toContain(
      '--tmpfs /home/ada/.kube --bind /home/ada/.kube/project /home/ada/.kube/project --tmpfs /home/ada/.kube/project/.ssh --remount-ro /home/ada/.kube/project/.ssh',
    );
    // The private /tmp hides the real one's files already.
    expect(args).not.toContain('/tmp/elsewhere');
  });

  it('starts with the flags the sandbox probe tries, so a bwrap the probe accepts starts every command', async () => {
    // A bwrap that writes its arguments, one a line, beside itself, and exits 0.
    const folder = mkdtempSync(join(base, 'bin-'));
    const bwrap = join(folder, 'bwrap');
    writeFileSync(bwrap, `#!/bin/sh\nprintf '%s\\n' "$@" > '${folder}/arguments'\n`);
    chmodSync(bwrap, 0o755);
    expect(await probeSandbox({ env: { PATH: folder } })).toEqual({
      available: true,
      bwrap: realpathSync(bwrap),
    });
    const command = bwrapArguments(LAYOUT, 'make');
    const isolation = command.slice(0, command.indexOf('--bind'));
    expect(isolation).toContain('--cap-drop');
    expect(readFileSync(join(folder, 'arguments'), 'utf8')).toBe(
      `${[...isolation, '--', 'true'].join('\n')}\n`,
    );
  });
});
