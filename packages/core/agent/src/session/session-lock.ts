import { randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SessionError, systemCode } from './session-error.js';

/** Who holds a lock: the process and the machine it runs on. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
}

/** A held session lock. */
export interface SessionLock {
  /** Gives the lock back. Idempotent; never throws. */
  release(): void;
}

const GENERATION = /^(\d{1,15})\.lock$/;
const ATTEMPTS = 20;

function lockName(generation: number): string {
  return `${generation}.lock`;
}

function generations(folder: string): number[] {
  try {
    return readdirSync(folder).flatMap((name) => {
      const match = GENERATION.exec(name);
      return match === null ? [] : [Number(match[1])];
    });
  } catch (error) {
    if (systemCode(error) === 'ENOENT') return [];
    throw error;
  }
}

/** The holder written in a lock file, `undefined` for one that is gone, `null` if unreadable. */
function holderOf(path: string): LockHolder | undefined | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (systemCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { pid, host } = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isSafeInteger(pid) && (pid as number) > 0 && typeof host === 'string') {
      return { pid: pid as number, host };
    }
  } catch {
    // An unreadable lock file was never a complete lock (see `lockSession`).
  }
  return null;
}

/**
 * Whether the holder may still be running. A process on another machine cannot be checked,
 * so it counts as running; `EPERM` means the process exists but belongs to someone else.
 */
function running(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return systemCode(error) === 'EPERM';
  }
}

function lockedError(id: string, holder: LockHolder, folder: string): SessionError {
  if (holder.pid === process.pid && holder.host === hostname()) {
    return new SessionError(`Session ${id} is already open in this process.`, 'SESSION_LOCKED');
  }
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return new SessionError(
    `Session ${id} is open in another dsh process (pid ${holder.pid}${where}): close it there first. If no such process runs, remove ${folder}.`,
    'SESSION_LOCKED',
  );
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or not ours to remove: nothing depends on it.
  }
}

function writeDraft(folder: string, draft: string, text: string): void {
  for (let attempt = 1; ; attempt++) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(draft, text, { mode: 0o600, flag: 'wx' });
      return;
    } catch (error) {
      // A holder releasing the lock removed the empty folder in between: make it again.
      if (systemCode(error) !== 'ENOENT' || attempt >= 3) throw error;
    }
  }
}

/**
 * Takes the lock of session `id`, whose files live in `folder` (`<id>.lock/` beside the
 * session): one exclusively created file per generation (`1.lock`, `2.lock`…), each holding
 * the pid and host of its holder, written whole before it appears (a link of a finished
 * file). The lock is the highest generation; a holder that has died is replaced by creating
 * the next generation, which only one process can do. A process that created a generation
 * then checks that none is above it and every one below has a dead holder, and backs off
 * otherwise: two writers can never both hold it. Throws `SESSION_LOCKED` naming the holder.
 */
export function lockSession(folder: string, id: string): SessionLock {
  const me: LockHolder = { pid: process.pid, host: hostname() };
  const draft = join(folder, `${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  writeDraft(folder, draft, JSON.stringify(me));
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const top = Math.max(0, ...generations(folder));
      if (top > 0) {
        const holder = holderOf(join(folder, lockName(top)));
        if (holder === undefined) continue;
        if (holder !== null && running(holder)) throw lockedError(id, holder, folder);
      }
      const mine = top + 1;
      const path = join(folder, lockName(mine));
      try {
        linkSync(draft, path);
      } catch (error) {
        // Another process took this generation first (or the folder went away): look again.
        if (systemCode(error) === 'EEXIST' || systemCode(error) === 'ENOENT') continue;
        throw error;
      }
      const others = generations(folder).filter((generation) => generation !== mine);
      const stale = others.filter((generation) => {
        if (generation > mine) return false;
        const holder = holderOf(join(folder, lockName(generation)));
        return holder === undefined || holder === null || !running(holder);
      });
      if (stale.length !== others.length) {
        removeQuietly(path);
        continue;
      }
      // The dead holders' files are of no use to anyone now.
      for (const generation of stale) removeQuietly(join(folder, lockName(generation)));
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          removeQuietly(path);
          try {
            rmdirSync(folder);
          } catch {
            // Another process is taking the lock: the folder is its now.
          }
        },
      };
    }
    throw new SessionError(
      `Session ${id} could not be locked: other processes kept taking its lock. Try again.`,
      'SESSION_LOCKED',
    );
  } finally {
    removeQuietly(draft);
  }
}
