import { randomBytes } from 'node:crypto';
import {
  closeSync,
  open,
  readdirSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { inertText } from '../files/inert-text.js';
import { isOwnFileError, openOwnFile } from '../files/own-file.js';
import { heldLock, linkHeldLock, linkLockFile, newSessionLock } from './held-locks.js';
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
/**
 * The last generation: the next one must still match `GENERATION`, whatever was found. A
 * generation is taken once per holder that died, so only a planted file gets near it.
 */
const LAST_GENERATION = 999_999_999_999_999;
const ATTEMPTS = 20;
/** A holder is a pid and a host name: anything longer is not a lock of ours. */
const HOLDER_BYTES = 4096;

/** The file of one generation of the lock of session `id`: `<id>.<generation>.lock`. */
function lockName(id: string, generation: number): string {
  return `${id}.${generation}.lock`;
}

/** The generations of the lock of session `id` present in `folder`. */
function generations(folder: string, id: string): number[] {
  const prefix = `${id}.`;
  try {
    return readdirSync(folder).flatMap((name) => {
      if (!name.startsWith(prefix)) return [];
      const match = GENERATION.exec(name.slice(prefix.length));
      return match === null ? [] : [Number(match[1])];
    });
  } catch (error) {
    if (systemCode(error) === 'ENOENT') return [];
    throw error;
  }
}

/** What a lock file holds, read without waiting or following links; `null` if it is no lock file. */
function lockText(path: string): string | null {
  const { fd } = openOwnFile(path);
  try {
    const buffer = Buffer.alloc(HOLDER_BYTES);
    let length = 0;
    for (let read = -1; read !== 0 && length < HOLDER_BYTES; length += read) {
      read = readSync(fd, buffer, length, HOLDER_BYTES - length, length);
    }
    return length < HOLDER_BYTES ? buffer.toString('utf8', 0, length) : null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The holder written in a lock file, `undefined` for one that is gone, `null` if unreadable:
 * so is anything that is not a regular file of this user (a FIFO, a link, a planted file).
 */
function holderOf(path: string): LockHolder | undefined | null {
  let text: string | null;
  try {
    text = lockText(path);
  } catch (error) {
    if (systemCode(error) === 'ENOENT') return undefined;
    if (isOwnFileError(error)) return null;
    throw error;
  }
  if (text === null) return null;
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
  } catch (error) {
    return systemCode(error) === 'EPERM';
  }
  return !ended(holder.pid);
}

/**
 * Whether a process that still has an entry has ended: killed, but not yet reaped by its
 * parent (a zombie, state `Z`, or `X` while it goes). `kill(pid, 0)` succeeds for it, though it
 * will never write again. Only Linux says so (`/proc`); elsewhere, an entry counts as running.
 */
function ended(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // `pid (name) S ...`: the name may hold spaces and parentheses, the state follows the last `)`.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

function lockedError(id: string, holder: LockHolder, path: string): SessionError {
  if (holder.pid === process.pid && holder.host === hostname()) {
    return new SessionError(`Session ${id} is already open in this process.`, 'SESSION_LOCKED');
  }
  // The host was read from a file: it reaches the terminal inert, as does the path.
  const where = holder.host === hostname() ? '' : ` on ${inertText(holder.host)}`;
  return new SessionError(
    `Session ${id} is open in another dsh process (pid ${holder.pid}${where}): close it there first. If no such process runs, remove ${inertText(path)}.`,
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

/** A lock whose generations ran out (a planted file): refused, never wrapped around. */
function exhausted(folder: string, id: string): SessionError {
  return new SessionError(
    `Session ${id} cannot be locked: its lock files in ${inertText(folder)} are not dsh's. Remove ${inertText(join(folder, `${id}.*.lock`))} if no dsh process has it open.`,
    'SESSION_LOCKED',
  );
}

function me(): string {
  return JSON.stringify({ pid: process.pid, host: hostname() } satisfies LockHolder);
}

/**
 * Takes the lock of a session being created, whose files live in `folder`: its id is new, so
 * no other process can know it before its file exists, and none can race for its lock. Its
 * first generation is one more name of a lock file this process holds there (see
 * `held-locks.ts`), or else written in place: one file made, where `lockSession` makes and
 * reads several. Falls back to `lockSession` if a lock exists after all.
 */
export function lockNewSession(folder: string, id: string): SessionLock {
  const path = join(folder, lockName(id, 1));
  try {
    if (!linkHeldLock(folder, path)) writeFileSync(path, me(), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (systemCode(error) === 'EEXIST') return lockSession(folder, id);
    throw error;
  }
  return heldLock(folder, path);
}

/**
 * `lockNewSession` with its file, when one is made, made off the main thread (one call to the
 * system's worker threads), so that a session prepared ahead of its first prompt never holds up
 * another's messages. The holder is written at once into the new, empty file.
 */
export function lockNewSessionAsync(folder: string, id: string): Promise<SessionLock> {
  const path = join(folder, lockName(id, 1));
  // Most often this process holds another lock there: one more name of its file is the lock,
  // made at once, with nothing created or written (see `held-locks.ts`).
  return newSessionLock(
    folder,
    path,
    () => createLockFile(folder, id, path),
    () => lockSession(folder, id),
  );
}

/** The lock file `path` of a new session `id`, created off the main thread. */
async function createLockFile(folder: string, id: string, path: string): Promise<SessionLock> {
  let fd: number;
  try {
    fd = await new Promise<number>((resolve, reject) =>
      open(path, 'wx', 0o600, (error, opened) => (error ? reject(error) : resolve(opened))),
    );
  } catch (error) {
    if (systemCode(error) === 'EEXIST') return lockSession(folder, id);
    throw error;
  }
  try {
    const holder = Buffer.from(me());
    for (let offset = 0; offset < holder.length; ) {
      offset += writeSync(fd, holder, offset);
    }
  } catch (error) {
    removeQuietly(path);
    throw error;
  } finally {
    closeSync(fd);
  }
  return heldLock(folder, path);
}

/**
 * Takes the lock of session `id`, whose files live in `folder` beside the session's: one
 * exclusively created file per generation (`<id>.1.lock`, `<id>.2.lock`…), each holding
 * the pid and host of its holder, written whole before it appears (a link of a finished
 * file). The lock is the highest generation; a holder that has died is replaced by creating
 * the next generation, which only one process can do. A process that created a generation
 * then checks that none is above it and every one below has a dead holder, and backs off
 * otherwise: two writers can never both hold it (the first generation is tried before the
 * folder is read, which that check makes as safe as any other). Throws `SESSION_LOCKED` naming
 * the holder. The finished file linked is one this process holds in `folder` when it holds one
 * (see `held-locks.ts`), else a draft written for it (four calls more: made, written, closed,
 * removed), made only when needed.
 */
export function lockSession(folder: string, id: string): SessionLock {
  let draft: string | undefined;
  const drafted = (): string => {
    if (draft !== undefined) return draft;
    const path = join(folder, `${id}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    writeFileSync(path, me(), { mode: 0o600, flag: 'wx' });
    draft = path;
    return path;
  };
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // Most often the session has no lock at all: the first generation is tried at once, and
      // the folder is read once, by the check that follows every creation. Only when it exists
      // is the folder read first, to find the top generation and its holder.
      const top = attempt === 0 ? 0 : Math.max(0, ...generations(folder, id));
      if (top > 0) {
        const path = join(folder, lockName(id, top));
        const holder = holderOf(path);
        if (holder === undefined) continue;
        if (holder !== null && running(holder)) throw lockedError(id, holder, path);
        if (top >= LAST_GENERATION) throw exhausted(folder, id);
      }
      const mine = top + 1;
      const path = join(folder, lockName(id, mine));
      // Another process took this generation first: look again.
      if (!linkLockFile(folder, path, drafted)) continue;
      const others = generations(folder, id).filter((generation) => generation !== mine);
      const stale = others.filter((generation) => {
        if (generation > mine) return false;
        const holder = holderOf(join(folder, lockName(id, generation)));
        return holder === undefined || holder === null || !running(holder);
      });
      if (stale.length !== others.length) {
        removeQuietly(path);
        continue;
      }
      // The dead holders' files are of no use to anyone now.
      for (const generation of stale) removeQuietly(join(folder, lockName(id, generation)));
      return heldLock(folder, path);
    }
    throw new SessionError(
      `Session ${id} could not be locked: other processes kept taking its lock. Try again.`,
      'SESSION_LOCKED',
    );
  } finally {
    if (draft !== undefined) removeQuietly(draft);
  }
}
