import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isSessionError } from '../../src/session/session-error.js';
import { lockSession } from '../../src/session/session-lock.js';
import { deferred } from '../../src/testing.js';
import { stateFolder } from '../support/session-files.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/lock-session.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));
const ID = '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b';
const OTHER = '1c6f9b7f-4d2e-4f30-8b8c-7d6e5f4a3b2c';

interface Locker {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves with the next line the process prints. */
  line(): Promise<string>;
  readonly exited: Promise<void>;
}

const lockers: Locker[] = [];
afterEach(async () => {
  for (const locker of lockers.splice(0)) {
    locker.child.kill('SIGKILL');
    await locker.exited;
  }
});

/** A process of its own that takes the lock when told to. */
async function locker(folder: string): Promise<Locker> {
  const child = spawn(
    process.execPath,
    ['--conditions=dsh-source', '--import', 'tsx', FIXTURE, folder, ID],
    { cwd: PACKAGE, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) {
      const waiter = waiters.shift();
      if (waiter === undefined) lines.push(line);
      else waiter(line);
    }
  });
  const exited = deferred();
  child.on('exit', () => exited.resolve());
  const result: Locker = {
    child,
    line: () => {
      const line = lines.shift();
      return line === undefined
        ? new Promise((resolve) => waiters.push(resolve))
        : Promise.resolve(line);
    },
    exited: exited.promise,
  };
  lockers.push(result);
  expect(await result.line()).toBe('ready');
  return result;
}

describe('the session lock', () => {
  it('takes over the lock of a process that died, lets exactly one of several racing processes in, and names it to the others', async () => {
    const folder = stateFolder();
    // The lock a killed holder leaves: its file, naming a process that no longer runs.
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(join(folder, `${ID}.1.lock`), JSON.stringify({ pid, host: hostname() }));

    const racers = await Promise.all(Array.from({ length: 3 }, () => locker(folder)));
    for (const racer of racers) racer.child.stdin.write('go\n');
    const outcomes = await Promise.all(racers.map((racer) => racer.line()));
    const winners = outcomes.filter((line) => line.startsWith('locked'));
    expect(winners, outcomes.join('\n')).toHaveLength(1);
    const winner = racers[outcomes.indexOf(winners[0] ?? '')] as Locker;
    for (const line of outcomes.filter((outcome) => !outcome.startsWith('locked'))) {
      expect(line).toBe(
        `refused SESSION_LOCKED Session ${ID} is open in another dsh process (pid ${winner.child.pid}): close it there first. If no such process runs, remove ${join(folder, `${ID}.2.lock`)}.`,
      );
    }
    // The dead holder's file is gone; the winner's generation is the only one.
    expect(readdirSync(folder)).toEqual([`${ID}.2.lock`]);
    let error: unknown;
    try {
      lockSession(folder, ID);
    } catch (caught) {
      error = caught;
    }
    expect(isSessionError(error, 'SESSION_LOCKED')).toBe(true);

    // Once the holder lets go, this process takes it; a second take here is refused.
    winner.child.stdin.end();
    await winner.exited;
    const mine = lockSession(folder, ID);
    expect(() => lockSession(folder, ID)).toThrow(`Session ${ID} is already open in this process.`);
    await mine.release();
    await mine.release();
    expect(readdirSync(folder)).toEqual([]);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'takes over the lock of a holder that was killed but not yet reaped (a zombie)',
    async () => {
      const folder = stateFolder();
      // The child ends only once its parent is `sleep 30` (exec), which never reaps it. (A
      // child that ended at once could be reaped by the shell before its exec, under load:
      // then no zombie was left to find.) `$$` in a subshell is the parent shell's pid.
      const parent = spawn(
        'sh',
        [
          '-c',
          '(while [ "$(cat /proc/$$/comm)" != sleep ]; do sleep 0.01; done) & echo $!; exec sleep 30',
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      try {
        const [line] = (await once(parent.stdout, 'data')) as [Buffer];
        const pid = Number(line.toString().trim());
        await vi.waitFor(() => {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          expect(stat.slice(stat.lastIndexOf(')') + 2)[0]).toBe('Z');
        });
        // It still has an entry: a signal 0 reaches it.
        expect(process.kill(pid, 0)).toBe(true);
        writeFileSync(join(folder, `${ID}.1.lock`), JSON.stringify({ pid, host: hostname() }));
        const lock = lockSession(folder, ID);
        expect(readdirSync(folder)).toEqual([`${ID}.2.lock`]);
        lock.release();
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('reads the highest generation as the lock, whatever is missing below it', async () => {
    const folder = stateFolder();
    // A live holder (the process that started this test) above a gap and a dead one.
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(join(folder, `${ID}.1.lock`), JSON.stringify({ pid, host: hostname() }));
    writeFileSync(
      join(folder, `${ID}.3.lock`),
      JSON.stringify({ pid: process.ppid, host: hostname() }),
    );
    // Another session's lock is no concern of this one.
    writeFileSync(
      join(folder, `${OTHER}.9.lock`),
      JSON.stringify({ pid: process.ppid, host: hostname() }),
    );
    expect(() => lockSession(folder, ID)).toThrow(`(pid ${process.ppid})`);
    // A holder on another machine cannot be checked: it counts as running.
    writeFileSync(join(folder, `${ID}.4.lock`), JSON.stringify({ pid, host: 'elsewhere' }));
    expect(() => lockSession(folder, ID)).toThrow(`(pid ${pid} on elsewhere)`);
    expect(readdirSync(folder).sort()).toEqual(
      [`${ID}.1.lock`, `${ID}.3.lock`, `${ID}.4.lock`, `${OTHER}.9.lock`].sort(),
    );
    // With the holders gone, the lock is taken over: the next generation, the dead files removed.
    writeFileSync(join(folder, `${ID}.3.lock`), JSON.stringify({ pid, host: hostname() }));
    writeFileSync(join(folder, `${ID}.4.lock`), JSON.stringify({ pid, host: hostname() }));
    const lock = lockSession(folder, ID);
    expect(readdirSync(folder).sort()).toEqual([`${ID}.5.lock`, `${OTHER}.9.lock`].sort());
    await lock.release();
  });
});
