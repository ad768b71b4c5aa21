import { constants, type Stats } from 'node:fs';

// Windows has neither: there a file is checked by `fstat` alone.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;

/**
 * The open flags of a file dsh trusts only as found: never through a symbolic link
 * (`O_NOFOLLOW`), never waiting (`O_NONBLOCK`, so a FIFO cannot hang the program). Add them to
 * the `fs.constants` flags a file of the state folder is opened with, then check the handle
 * with `ownFileProblem`.
 */
export const OWN_FILE_FLAGS = NO_FOLLOW | NON_BLOCKING;

/** The current user, `undefined` where the system has no user ids (Windows). */
export function currentUser(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/**
 * What is wrong with a file as its open handle's `fstat` sees it: not a regular file (a FIFO,
 * a device, a folder, a socket), or owned by another user. `undefined` when it is fine.
 */
export function ownFileProblem(stats: Stats): string | undefined {
  if (!stats.isFile()) return 'is not a regular file';
  const user = currentUser();
  if (user !== undefined && stats.uid !== user) return `belongs to another user (uid ${stats.uid})`;
  return undefined;
}
