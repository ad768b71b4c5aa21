import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SETUP = join(ROOT, 'scripts/setup.sh');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).packageManager.replace(
  /^pnpm@/,
  '',
);

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * Runs scripts/setup.sh with stand-ins for `pnpm` and `npm` first on the PATH: each logs its
 * arguments; `pnpm --version` prints `installed`, or fails as a missing command does.
 */
function runSetup(
  installed: string | undefined,
  args: readonly string[] = [],
  { systemPrograms = true }: { systemPrograms?: boolean } = {},
) {
  const bin = mkdtempSync(join(tmpdir(), 'dsh-setup-'));
  folders.push(bin);
  const log = join(bin, 'calls.log');
  const standIn = (name: string, version: string | undefined) => {
    const file = join(bin, name);
    const answer = version === undefined ? 'exit 127' : `echo ${version}; exit 0`;
    writeFileSync(
      file,
      `#!/bin/sh\nif [ "$1" = --version ]; then ${answer}; fi\necho "${name} $*" >> '${log}'\n`,
    );
    chmodSync(file, 0o755);
  };
  standIn('pnpm', installed);
  standIn('npm', '10.0.0');
  let path = `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`;
  if (!systemPrograms) {
    // A machine without strace and bubblewrap, as root with apt-get: only what the script needs.
    standIn('apt-get', '2.6');
    writeFileSync(join(bin, 'id'), '#!/bin/sh\necho 0\n');
    chmodSync(join(bin, 'id'), 0o755);
    symlinkSync(process.execPath, join(bin, 'node'));
    symlinkSync('/usr/bin/dirname', join(bin, 'dirname'));
    path = bin;
  }
  const env = { ...process.env, PATH: path };
  return new Promise<string[]>((resolve, reject) => {
    execFile('/bin/sh', [SETUP, ...args], { env }, (error) => {
      if (error !== null) reject(error);
      else {
        let calls = '';
        try {
          calls = readFileSync(log, 'utf8');
        } catch {
          // Nothing was called.
        }
        resolve(calls.split('\n').filter((line) => line !== ''));
      }
    });
  });
}

describe('scripts/setup.sh', () => {
  it('leaves pnpm alone when the right version is installed, and installs the dependencies', async () => {
    expect(await runSetup(VERSION)).toEqual(['pnpm install']);
  });

  it('installs pnpm at the version package.json names when another one is installed', async () => {
    expect(await runSetup('11.9.0')).toEqual([
      `npm install --global pnpm@${VERSION}`,
      'pnpm install',
    ]);
  });

  it('installs pnpm when there is none, and passes its arguments to pnpm install', async () => {
    expect(await runSetup(undefined, ['--frozen-lockfile'])).toEqual([
      `npm install --global pnpm@${VERSION}`,
      'pnpm install --frozen-lockfile',
    ]);
  });

  it('installs strace and bubblewrap with apt-get where they are missing, then pnpm', async () => {
    expect(await runSetup(VERSION, [], { systemPrograms: false })).toEqual([
      'apt-get update -qq',
      'apt-get install -y -qq strace bubblewrap',
      'pnpm install',
    ]);
  });

  it('is what both README commands and CI run first', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('sh scripts/setup.sh && pnpm start\n');
    expect(readme).toContain('sh scripts/setup.sh && pnpm test\n');
    expect(readme).not.toMatch(/npm install -g pnpm/);
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toContain(
      'sh scripts/setup.sh --frozen-lockfile',
    );
  });
});
