import { linkSync, unlinkSync } from 'node:fs';
import { systemCode } from './session-error.js';
import type { SessionLock } from './session-lock.js';

/**
 * The lock files this process holds, by folder, oldest first. Every one holds the same text
 * (this process's pid and host name), so a new session's lock can be one more name (a hard
 * link) of one of them rather than a file of its own: a link adds a name and no file, and
 * giving the lock back removes that name and no file. A file system that keeps inodes freed in
 * the last half minute from being used again (ext4 without a journal scans past each one at
 * every file it creates) then has no lock file to skip: with a file made and freed per
 * session, each new file of a busy folder cost a scan of all those freed lately.
 */
const held = new Map<string, Set<string>>();
/** A lock file being made in a folder where this process held none: the next locks link it. */
const making = new Map<string, Promise<void>>();

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or not ours to remove: nothing depends on it.
  }
}

/** The lock held through the lock file at `path` in `folder`, which holds this process's text. */
export function heldLock(folder: string, path: string): SessionLock {
  let paths = held.get(folder);
  if (paths === undefined) {
    paths = new Set();
    held.set(folder, paths);
  }
  paths.add(path);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const current = held.get(folder);
      current?.delete(path);
      if (current?.size === 0) held.delete(folder);
      removeQuietly(path);
    },
  };
}

/**
 * Makes `path` one more name of a lock file this process holds in `folder`, on the spot: the
 * lock, whole at once, since it appears with its holder written. Synchronous, so no lock of
 * this process can be given back (its name removed, then perhaps taken by another process)
 * between the choice of the file and the link. Returns false when there is none to link, or the
 * system makes no link of it (no hard links there, too many names): the caller makes a file.
 * Throws the system's `EEXIST` when `path` exists.
 */
export function linkHeldLock(folder: string, path: string): boolean {
  const source = held.get(folder)?.values().next().value;
  if (source === undefined) return false;
  try {
    linkSync(source, path);
    return true;
  } catch (error) {
    if (systemCode(error) === 'EEXIST') throw error;
    // No hard links on this file system, or too many names of this file: a file of its own.
    return false;
  }
}

/**
 * Makes `path` a lock file of this process, whole as it appears: one more name of a lock file
 * it holds in `folder` (see `held-locks.ts`), else of the draft `drafted` writes. False when
 * another process took `path` first.
 */
export function linkLockFile(folder: string, path: string, drafted: () => string): boolean {
  try {
    if (linkHeldLock(folder, path)) return true;
  } catch (error) {
    if (systemCode(error) === 'EEXIST') return false;
    throw error;
  }
  // Made outside the `try` below: a draft that cannot be made is no race but the failure.
  const draft = drafted();
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if (systemCode(error) === 'EEXIST' || systemCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/**
 * A new session's lock at `path` in `folder`: one more name of a lock file this process holds
 * there, made at once (one `link`, no file made or written); else, while another lock file is
 * being made there, one more name of that one, once made; else the file `make` makes (off the
 * main thread). `taken` is the lock when `path` exists already.
 */
export async function newSessionLock(
  folder: string,
  path: string,
  make: () => Promise<SessionLock>,
  taken: () => SessionLock,
): Promise<SessionLock> {
  const linked = (): SessionLock | undefined => {
    try {
      return linkHeldLock(folder, path) ? heldLock(folder, path) : undefined;
    } catch (error) {
      if (systemCode(error) === 'EEXIST') return taken();
      throw error;
    }
  };
  const now = linked();
  if (now !== undefined) return now;
  const under = making.get(folder);
  if (under !== undefined) {
    await under;
    const after = linked();
    if (after !== undefined) return after;
  }
  const made = make();
  if (!making.has(folder)) {
    const settled = made.then(
      () => {},
      () => {},
    );
    making.set(folder, settled);
    void settled.then(() => {
      if (making.get(folder) === settled) making.delete(folder);
    });
  }
  return made;
}
