import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { WorkspaceToolError } from '../tool-error.js';

/** The largest file the tools read or write, in bytes. */
export const LARGEST_FILE = 8 * 1024 * 1024;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'an unexpected error';
}

/** A failure of the file system as the model reads it: what failed, on which path. */
export function fileFailure(path: string, error: unknown): WorkspaceToolError {
  const code = codeOf(error);
  if (code === 'ENOENT')
    return new WorkspaceToolError(`There is no file ${path}.`, 'PATH_NOT_FOUND', { cause: error });
  return new WorkspaceToolError(`Cannot use ${path} (${code}).`, 'FILE_FAILED', { cause: error });
}

/** Whether bytes are text: valid UTF-8 with no NUL. */
export function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a UTF-8 text file; refuses a folder, a binary file (`NOT_TEXT`) and a file over
 * `LARGEST_FILE` (`TOO_LARGE`), saying so. `undefined` when nothing is at the path and `missing` allows it.
 */
export async function readTextFile(path: string, missing?: 'allowed'): Promise<string | undefined> {
  return (await readTextFileAndMode(path, missing))?.text;
}

/** A text file read by `readTextFileAndMode`: its text and its permission bits. */
export interface TextFileContents {
  readonly text: string;
  readonly mode: number;
}

function refuseUnlessTextSized(path: string, stats: Stats): void {
  if (stats.isDirectory()) {
    throw new WorkspaceToolError(
      `${path} is a folder, not a file: list it with list_files.`,
      'NOT_TEXT',
    );
  }
  if (!stats.isFile()) throw new WorkspaceToolError(`${path} is not a regular file.`, 'NOT_TEXT');
  if (stats.size > LARGEST_FILE) {
    throw new WorkspaceToolError(
      `${path} has ${stats.size} bytes, more than the ${LARGEST_FILE} a tool reads or writes.`,
      'TOO_LARGE',
    );
  }
}

/**
 * Reads `fd` to its end, but never more than `most` bytes: a file that grows while it is read
 * is cut there (and refused by its caller), not read whole. `expected`: its size when opened.
 */
export function readAtMost(fd: number, expected: number, most: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(expected + 1, most));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length >= most) break;
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, most));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

/**
 * `readTextFile`, also giving the file's mode (for `writeTextFile` to keep it without a stat).
 *
 * The file is read with synchronous calls, on purpose: a text file of at most `LARGEST_FILE`
 * bytes is read in microseconds, where each asynchronous call is a round trip through libuv's
 * thread pool (two thread wake-ups; the about 20 of an approved edit made it cost 1.6 times
 * what the same messages and the same write cost a bare agent). Only what waits on the disk (`fsync`) goes to the pool. What is not a regular
 * file is refused from its `stat`, before it is opened (opening a FIFO would wait for a
 * writer), and again from the opened file's own `fstat` (opened without blocking), in case the
 * path was replaced in between.
 */
export async function readTextFileAndMode(
  path: string,
  missing?: 'allowed',
): Promise<TextFileContents | undefined> {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if (missing === 'allowed' && codeOf(error) === 'ENOENT') return undefined;
    throw fileFailure(path, error);
  }
  refuseUnlessTextSized(path, stats);
  let bytes: Buffer;
  try {
    // `path` is resolved (every link in it followed) by its callers: a link there now was put in
    // its place since, and might lead out of the workspace, so it is not followed.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    try {
      // What was opened is judged again: the path may have been replaced since the stat (by a
      // new file that can even reuse the old one's inode number).
      const opened = fstatSync(fd);
      refuseUnlessTextSized(path, opened);
      stats = opened;
      bytes = readAtMost(fd, opened.size, LARGEST_FILE + 1);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof WorkspaceToolError) throw error;
    if (codeOf(error) === 'ELOOP') {
      throw new WorkspaceToolError(
        `${path} became a symbolic link after its path was resolved, so it is not read.`,
        'FILE_CHANGED',
        { cause: error },
      );
    }
    throw fileFailure(path, error);
  }
  if (bytes.length > LARGEST_FILE) {
    throw new WorkspaceToolError(
      `${path} grew while it was read, to more than the ${LARGEST_FILE} bytes a tool reads or writes.`,
      'TOO_LARGE',
    );
  }
  if (!isText(bytes)) {
    throw new WorkspaceToolError(
      `${path} is not UTF-8 text (it looks binary), so it is not read.`,
      'NOT_TEXT',
    );
  }
  return { text: bytes.toString('utf8'), mode: stats.mode & 0o7777 };
}

/** A name for the new file beside `path`, unused by anyone else (opened with `wx` all the same). */
function temporaryBeside(path: string): string {
  // randomUUID draws from a buffered pool: cheaper per call than randomBytes.
  const random = randomUUID().replaceAll('-', '').slice(0, 12);
  return join(dirname(path), `.${basename(path)}.${random}.tmp`);
}

/** Opens the new file exclusively; its folder (and theirs) are made only when missing. */
function openNew(temporary: string, mode: number): number {
  try {
    return openSync(temporary, 'wx', mode);
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(temporary), { recursive: true });
  return openSync(temporary, 'wx', mode);
}

const fsyncOnPool = promisify(fsync);

/**
 * Writes `text` to `path` whole or not at all: a new file in the same folder, made durable,
 * then renamed over the old one (whose mode it keeps: `mode` when the caller just read it,
 * else the file's own). Parent folders are made first when they are missing. Only the `fsync`
 * waits on the thread pool; the rest is synchronous (see `readTextFileAndMode`).
 */
export async function writeTextFile(path: string, text: string, knownMode?: number): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > LARGEST_FILE) {
    throw new WorkspaceToolError(
      `The new text of ${path} is larger than ${LARGEST_FILE} bytes.`,
      'TOO_LARGE',
    );
  }
  let mode = knownMode ?? 0o644;
  if (knownMode === undefined) {
    try {
      mode = statSync(path).mode & 0o7777;
    } catch {
      // A new file.
    }
  }
  const temporary = temporaryBeside(path);
  try {
    const fd = openNew(temporary, mode);
    try {
      for (let written = 0; written < bytes.length; ) {
        written += writeSync(fd, bytes, written, bytes.length - written);
      }
      fchmodSync(fd, mode);
      await fsyncOnPool(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Never made, or already gone.
    }
    throw fileFailure(path, error);
  }
}
