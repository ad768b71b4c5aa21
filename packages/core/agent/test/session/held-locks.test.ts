// A new session's lock is one more name of a lock file the process holds, never a file made
// and removed per session: see `held-locks.ts`.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  lockNewSession,
  lockNewSessionAsync,
  lockSession,
} from '../../src/session/session-lock.js';
import { stateFolder } from '../support/session-files.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/lock-session.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
const IDS = [
  '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b',
  '1c6f9b7f-4d2e-4f30-8b8c-7d6e5f4a3b2c',
  '2d7a0c8a-5e3f-4a41-9c9d-8e7f6a5b4c3d',
  '3e8b1d9b-6f4a-4b52-8dae-9f8a7b6c5d4e',
] as const;

/** What another process says when it tries to take the lock of `id` in `folder`. */
async function otherProcessLocks(folder: string, id: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--conditions=dsh-source', '--import', 'tsx', FIXTURE, folder, id],
    { cwd: PACKAGE, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (output === 'ready\n') child.stdin.end('go\n');
  });
  await once(child, 'exit');
  return output.split('\n')[1] ?? '';
}

const ME = JSON.stringify({ pid: process.pid, host: hostname() });

describe('the locks of new sessions', () => {
  it('are names of one file holding this process, each still a lock when the others are given back', async () => {
    const folder = stateFolder();
    const first = await lockNewSessionAsync(folder, IDS[0]);
    const second = await lockNewSessionAsync(folder, IDS[1]);
    const third = lockNewSession(folder, IDS[2]);
    const paths = IDS.slice(0, 3).map((id) => join(folder, `${id}.1.lock`));
    // One file, three names: no file made for the second and the third.
    expect(new Set(paths.map((path) => statSync(path).ino)).size).toBe(1);
    expect(statSync(paths[0] as string).nlink).toBe(3);
    expect(statSync(paths[1] as string).mode & 0o777).toBe(0o600);

    first.release();
    // The others stay held, their text whole: another process is refused, naming this one.
    expect(readFileSync(paths[1] as string, 'utf8')).toBe(ME);
    expect(await otherProcessLocks(folder, IDS[1])).toBe(
      `refused SESSION_LOCKED Session ${IDS[1]} is open in another dsh process (pid ${process.pid}): close it there first. If no such process runs, remove ${paths[1]}.`,
    );
    // A new lock is a name of one still held.
    const fourth = await lockNewSessionAsync(folder, IDS[3]);
    expect(statSync(join(folder, `${IDS[3]}.1.lock`)).ino).toBe(statSync(paths[1] as string).ino);
    for (const lock of [second, third, fourth]) lock.release();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('made at the same time, holding none, are names of the first file made', async () => {
    const folder = stateFolder();
    const locks = await Promise.all(IDS.map((id) => lockNewSessionAsync(folder, id)));
    const inodes = IDS.map((id) => statSync(join(folder, `${id}.1.lock`)).ino);
    expect(new Set(inodes).size).toBe(1);
    for (const lock of locks) lock.release();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('of a saved session opened while one is held are names of the held file: no draft made', async () => {
    const folder = stateFolder();
    const held = lockNewSession(folder, IDS[0]);
    const opened = lockSession(folder, IDS[1]);
    const path = join(folder, `${IDS[1]}.1.lock`);
    expect(statSync(path).ino).toBe(statSync(join(folder, `${IDS[0]}.1.lock`)).ino);
    held.release();
    // Still a lock, its text whole: another process is refused, naming this one.
    expect(readFileSync(path, 'utf8')).toBe(ME);
    expect(await otherProcessLocks(folder, IDS[1])).toBe(
      `refused SESSION_LOCKED Session ${IDS[1]} is open in another dsh process (pid ${process.pid}): close it there first. If no such process runs, remove ${path}.`,
    );
    expect(() => lockSession(folder, IDS[1])).toThrow(
      `Session ${IDS[1]} is already open in this process.`,
    );
    opened.release();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('take the next generation when the first exists (a dead holder), not a name of it', async () => {
    const folder = stateFolder();
    const held = lockSession(folder, IDS[0]);
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(join(folder, `${IDS[1]}.1.lock`), JSON.stringify({ pid, host: hostname() }));
    const taken = await lockNewSessionAsync(folder, IDS[1]);
    expect(readdirSync(folder).sort()).toEqual([`${IDS[0]}.1.lock`, `${IDS[1]}.2.lock`].sort());
    expect(readFileSync(join(folder, `${IDS[1]}.2.lock`), 'utf8')).toBe(ME);
    held.release();
    taken.release();
    expect(readdirSync(folder)).toEqual([]);
  });
});
