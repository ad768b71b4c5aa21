import { closeSync, constants, fstatSync, openSync, type Stats, statSync } from 'node:fs';
import { HarnessError } from 'dsh-user-interaction';
import { currentUser, OWN_FILE_FLAGS, ownFileProblem } from 'dsh-user-interaction/host';
import { inertText } from './inert-text.js';

// The file check itself is the contract's, shared with `dsh-tools` (its rules files).
export { OWN_FILE_FLAGS, ownFileProblem };

/** Every way a file or folder can fail `openOwnFile` or `checkOwnFolder`. */
export const OWN_FILE_ERROR_CODES = ['FILE_UNSAFE'] as const;

/** A file or folder that is not safe to use as found, with the reason in its message. */
export class OwnFileError extends HarnessError<(typeof OWN_FILE_ERROR_CODES)[number]> {
  constructor(
    message: string,
    /** The path refused. */
    readonly path: string,
  ) {
    super(message, 'FILE_UNSAFE');
  }
}

/** True for an `OwnFileError` from this or any other copy of the package. */
export const isOwnFileError = HarnessError.define(
  OwnFileError,
  'OwnFileError',
  OWN_FILE_ERROR_CODES,
);

function unsafe(path: string, problem: string): OwnFileError {
  return new OwnFileError(`${inertText(path)} ${problem}: it was not made by dsh.`, path);
}

/**
 * Opens a file the way a program should open one in its own state folder, trusting nothing
 * it finds there: never through a symbolic link (`O_NOFOLLOW`), never waiting (`O_NONBLOCK`,
 * so a FIFO cannot hang the program), and only a regular file owned by the current user, as
 * `fstat` of the open handle sees it. `flags` are `fs.constants` open flags (`O_RDONLY` by
 * default). Returns the descriptor and its stats; throws `OwnFileError` (`FILE_UNSAFE`) for a
 * file that is not one, and the system's error (`ENOENT`…) otherwise.
 */
export function openOwnFile(
  path: string,
  flags: number = constants.O_RDONLY,
  mode?: number,
): { readonly fd: number; readonly stats: Stats } {
  let fd: number;
  try {
    fd = openSync(path, flags | OWN_FILE_FLAGS, mode);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // ELOOP (EMLINK on BSD): the last part of the path is a link. ENXIO: a FIFO without a
    // reader or a socket, opened to write. EISDIR: a folder, opened to write.
    if (code === 'ELOOP' || code === 'EMLINK') throw unsafe(path, 'is a symbolic link');
    if (code === 'ENXIO' || code === 'EISDIR') throw unsafe(path, 'is not a regular file');
    throw error;
  }
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const problem = ownFileProblem(stats);
  if (problem !== undefined) {
    closeSync(fd);
    throw unsafe(path, problem);
  }
  return { fd, stats };
}

/**
 * Checks that `path` is a folder only its owner, the current user, can write in: files found
 * in a folder others can write in may have been planted. A sticky folder (`/tmp`) counts as
 * writable by others. Throws `OwnFileError` (`FILE_UNSAFE`) saying how to fix it, or the
 * system's error (`ENOENT`…).
 */
export function checkOwnFolder(path: string, what = 'The folder'): void {
  const stats = statSync(path);
  const shown = inertText(path);
  if (!stats.isDirectory()) {
    throw new OwnFileError(`${what} ${shown} is not a folder.`, path);
  }
  const user = currentUser();
  if (user === undefined) return;
  if (stats.uid !== user) {
    throw new OwnFileError(
      `${what} ${shown} belongs to another user (uid ${stats.uid}): use a folder of your own.`,
      path,
    );
  }
  if ((stats.mode & 0o022) !== 0) {
    throw new OwnFileError(
      `${what} ${shown} can be written by other users: make it yours alone with chmod 700 ${shown}.`,
      path,
    );
  }
}
