import { chmodSync, closeSync, constants, mkdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inertText } from '../files/inert-text.js';
import { checkOwnFolder, isOwnFileError, openOwnFile } from '../files/own-file.js';
import { readOpenFile } from '../files/read-open-file.js';
import { listSessionFiles, type SessionInfo } from './list-session-files.js';
import { readSessionFile } from './read-session-file.js';
import { SessionError, systemCode, systemProblem } from './session-error.js';
import { isSessionId, newSessionId } from './session-id.js';
import { entryLine } from './session-line.js';
import {
  lockNewSession,
  lockNewSessionAsync,
  lockSession,
  type SessionLock,
} from './session-lock.js';
import { FolderSync, SessionWriter } from './session-writer.js';
import { type NewSessionFile, SessionRecorder, type StoredSession } from './stored-session.js';

/** Options of `openSessionStore`. */
export interface SessionStoreOptions {
  /** The state folder (see `defaultStateDir`); sessions go in its `sessions/` folder. */
  readonly dir: string;
}

/** Options of `SessionStore.list`. */
export interface ListSessionsOptions {
  /** Only the sessions of this working directory. */
  readonly cwd?: string;
  /**
   * Told of each file left out because it is not safe to read (a FIFO, a folder, a symbolic
   * link, another user's file), one line each.
   */
  readonly onSkipped?: (warning: string) => void;
}

/**
 * Conversations kept on disk: one append-only JSON Lines file per session, in
 * `<dir>/sessions/<id>.jsonl`, readable by its owner only.
 */
export interface SessionStore {
  /** The state folder. */
  readonly dir: string;
  /**
   * A new session in `cwd`. Its lock and its file are prepared at once, off the main thread;
   * the file is empty (neither listed nor found) until the first prompt, and removed if the
   * session closes without one.
   */
  create(options: { readonly cwd: string }): StoredSession;
  /**
   * Opens a saved session to go on with it: locks it, reads it (checking every line), and
   * closes a turn the program left unfinished. Throws `SESSION_NOT_FOUND`, `SESSION_LOCKED`
   * (open in another process, which the message names), `SESSION_INVALID`, `SESSION_UNSAFE`
   * (the file or a folder is not safe as found), `SESSION_READ_FAILED` or
   * `SESSION_WRITE_FAILED` (the system refused, such as a read-only file system).
   */
  open(id: string): Promise<StoredSession>;
  /**
   * The saved sessions, the most recently active first. Throws `SESSION_UNSAFE` or
   * `SESSION_READ_FAILED` when the folder cannot be trusted or read.
   */
  list(options?: ListSessionsOptions): Promise<SessionInfo[]>;
}

const WRITE_PROBLEMS = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * A failure of the file system as a `SessionError`: one line for the person, with a stable
 * code. `doing` says what failed, such as `Cannot read the saved sessions in /x`.
 */
function storeFailure(error: unknown, doing: string): SessionError {
  if (error instanceof SessionError) {
    // A writer's failure says what it failed to save; here, what could not be done.
    if (error.code !== 'SESSION_WRITE_FAILED' || error.cause === undefined) return error;
    return new SessionError(`${doing} (${systemProblem(error.cause)}).`, error.code, {
      cause: error.cause,
    });
  }
  if (isOwnFileError(error)) {
    return new SessionError(`${doing}: ${error.message}`, 'SESSION_UNSAFE', { cause: error });
  }
  return new SessionError(
    `${doing} (${systemProblem(error)}).`,
    WRITE_PROBLEMS.has(systemCode(error)) ? 'SESSION_WRITE_FAILED' : 'SESSION_READ_FAILED',
    { cause: error },
  );
}

/**
 * Makes `path` (and its parents) with the folder itself readable by its owner only; one that
 * exists must be the user's own, writable by nobody else.
 */
function ensureFolder(path: string, what: string): void {
  try {
    checkOwnFolder(path, what);
    return;
  } catch (error) {
    if (systemCode(error) !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if (systemCode(error) !== 'EEXIST') throw error;
    checkOwnFolder(path, what);
    return;
  }
  // The mode went through the umask: set it exactly.
  chmodSync(path, 0o700);
}

function notFound(id: unknown): SessionError {
  return new SessionError(
    isSessionId(id)
      ? `There is no saved session ${id}.`
      : `There is no saved session ${JSON.stringify(String(id).slice(0, 100))}: session ids are UUIDs, such as 0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b.`,
    'SESSION_NOT_FOUND',
  );
}

/** A session store on the folder `dir`. Nothing is said in a file until a session's first prompt. */
export function openSessionStore(options: SessionStoreOptions): SessionStore {
  if (typeof options?.dir !== 'string' || options.dir === '') {
    throw new TypeError('openSessionStore() needs a `dir`.');
  }
  const dir = options.dir;
  const sessions = join(dir, 'sessions');
  const pathOf = (id: string): string => join(sessions, `${id}.jsonl`);
  const folderSync = new FolderSync(sessions);
  let foldersMade = false;
  const STATE = 'The state folder';
  const SESSIONS = 'The sessions folder';

  /** Whether the folders exist, checked as `ensureFolder` would; throws if they are not safe. */
  function foldersFound(): boolean {
    for (const [path, what] of [
      [dir, STATE],
      [sessions, SESSIONS],
    ] as const) {
      try {
        checkOwnFolder(path, what);
      } catch (error) {
        if (systemCode(error) === 'ENOENT') return false;
        throw error;
      }
    }
    return true;
  }

  function makeFolders(): void {
    if (foldersMade) return;
    try {
      ensureFolder(dir, STATE);
      ensureFolder(sessions, SESSIONS);
    } catch (error) {
      throw storeFailure(error, 'Cannot save the conversation');
    }
    foldersMade = true;
  }

  function fileOf(id: string, cwd: string): NewSessionFile {
    return {
      id,
      cwd,
      lock() {
        makeFolders();
        return lockNewSession(sessions, id);
      },
      create: (firstLines) => SessionWriter.create(pathOf(id), firstLines, folderSync),
      async prepare() {
        makeFolders();
        // Side by side: the id is new, so no other process can look for the file before it
        // holds a line, and an empty file is no session.
        const [lock, writer] = await Promise.allSettled([
          lockNewSessionAsync(sessions, id),
          SessionWriter.prepare(pathOf(id), folderSync),
        ]);
        if (lock.status === 'fulfilled' && writer.status === 'fulfilled') {
          return { writer: writer.value, lock: lock.value };
        }
        if (writer.status === 'fulfilled') {
          await writer.value.close();
          this.discard();
        }
        if (lock.status === 'fulfilled') lock.value.release();
        throw lock.status === 'rejected' ? lock.reason : (writer as PromiseRejectedResult).reason;
      },
      discard() {
        try {
          unlinkSync(pathOf(id));
        } catch {
          // Already gone: nothing is left behind either way.
        }
      },
    };
  }

  function session(
    id: string,
    cwd: string,
    entries: StoredSession['entries'],
    warnings: readonly string[],
    recorder: SessionRecorder,
  ): StoredSession {
    return {
      id,
      cwd,
      entries,
      warnings,
      recorder,
      close: () => recorder.close(),
    };
  }

  return {
    dir,
    create({ cwd }) {
      if (typeof cwd !== 'string' || cwd === '') {
        throw new TypeError('create() needs the session’s `cwd`.');
      }
      const id = newSessionId();
      return session(id, cwd, [], [], new SessionRecorder(fileOf(id, cwd)));
    },
    async open(id) {
      if (!isSessionId(id)) throw notFound(id);
      const path = pathOf(id);
      const doing = `Cannot open the saved session ${inertText(path)}`;
      let fd: number | undefined;
      let lock: SessionLock | undefined;
      let writer: SessionWriter | undefined;
      try {
        if (!foldersFound()) throw notFound(id);
        let size: number;
        try {
          // Opened once, for appending, and checked on that handle: what is read and what is
          // appended to are the same regular file of this user, never a link's target.
          ({
            fd,
            stats: { size },
          } = openOwnFile(path, constants.O_RDWR | constants.O_APPEND));
        } catch (error) {
          if (systemCode(error) === 'ENOENT') throw notFound(id);
          throw error;
        }
        // An empty file is a session prepared and never spoken in: there is none.
        if (size === 0) throw notFound(id);
        lock = lockSession(sessions, id);
        const bytes = readOpenFile(fd, size);
        const contents = readSessionFile(path, bytes);
        if (contents.header.id !== id) {
          throw new SessionError(
            `The session file ${inertText(path)} holds session ${contents.header.id}, not ${id}: it was copied or renamed.`,
            'SESSION_INVALID',
          );
        }
        const appending = fd;
        fd = undefined;
        // Cut only where a torn last line was skipped: a file read whole needs no cut.
        writer = SessionWriter.append(
          path,
          appending,
          contents.validLength < bytes.length ? contents.validLength : undefined,
        );
        if (contents.needsNewline) writer.write('\n');
        // A turn the program left unfinished is closed on disk too, before anything follows it.
        for (const entry of contents.closing) writer.write(entryLine(entry));
        if (contents.closing.length > 0 || contents.needsNewline) await writer.sync();
        const { header } = contents;
        const recorder = new SessionRecorder(fileOf(id, header.cwd), { writer, lock });
        // The reader's own array, kept as it is when nothing closes a turn (no copy of 10,000).
        const entries =
          contents.closing.length === 0
            ? contents.entries
            : [...contents.entries, ...contents.closing];
        return session(id, header.cwd, entries, contents.warnings, recorder);
      } catch (error) {
        if (fd !== undefined) closeSync(fd);
        await writer?.close();
        lock?.release();
        throw storeFailure(error, doing);
      }
    },
    async list(listOptions = {}) {
      const doing = `Cannot read the saved sessions in ${inertText(sessions)}`;
      try {
        if (!foldersFound()) return [];
        return await listSessionFiles(sessions, listOptions.cwd, listOptions.onSkipped);
      } catch (error) {
        throw storeFailure(error, doing);
      }
    },
  };
}
