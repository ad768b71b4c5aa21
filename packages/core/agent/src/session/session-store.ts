import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { listSessionFiles, type SessionInfo } from './list-session-files.js';
import { readSessionFile } from './read-session-file.js';
import { SessionError, systemCode } from './session-error.js';
import { isSessionId, newSessionId } from './session-id.js';
import { entryLine } from './session-line.js';
import { lockNewSession, lockSession } from './session-lock.js';
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
}

/**
 * Conversations kept on disk: one append-only JSON Lines file per session, in
 * `<dir>/sessions/<id>.jsonl`, readable by its owner only.
 */
export interface SessionStore {
  /** The state folder. */
  readonly dir: string;
  /** A new session in `cwd`. Its file appears with its first prompt. */
  create(options: { readonly cwd: string }): StoredSession;
  /**
   * Opens a saved session to go on with it: locks it, reads it (checking every line), and
   * closes a turn the program left unfinished. Throws `SESSION_NOT_FOUND`, `SESSION_LOCKED`
   * (open in another process, which the message names) or `SESSION_INVALID`.
   */
  open(id: string): Promise<StoredSession>;
  /** The saved sessions, the most recently active first. */
  list(options?: ListSessionsOptions): Promise<SessionInfo[]>;
}

/** Makes `path` (and its parents) with the folder itself readable by its owner only. */
function ensureFolder(path: string): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if (systemCode(error) === 'EEXIST') return;
    throw error;
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

/** A session store on the folder `dir`. Nothing is written until a session's first prompt. */
export function openSessionStore(options: SessionStoreOptions): SessionStore {
  if (typeof options?.dir !== 'string' || options.dir === '') {
    throw new TypeError('openSessionStore() needs a `dir`.');
  }
  const dir = options.dir;
  const sessions = join(dir, 'sessions');
  const pathOf = (id: string): string => join(sessions, `${id}.jsonl`);
  const folderSync = new FolderSync(sessions);
  let foldersMade = false;

  function fileOf(id: string, cwd: string): NewSessionFile {
    return {
      id,
      cwd,
      lock() {
        if (!foldersMade) {
          ensureFolder(dir);
          ensureFolder(sessions);
          foldersMade = true;
        }
        return lockNewSession(sessions, id);
      },
      create: (firstLines) => SessionWriter.create(pathOf(id), firstLines, folderSync),
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
      if (!isSessionId(id) || !existsSync(pathOf(id))) throw notFound(id);
      const lock = lockSession(sessions, id);
      let writer: SessionWriter | undefined;
      try {
        let bytes: Buffer;
        try {
          bytes = await readFile(pathOf(id));
        } catch (error) {
          if (systemCode(error) === 'ENOENT') throw notFound(id);
          throw error;
        }
        const contents = readSessionFile(pathOf(id), bytes);
        if (contents.header.id !== id) {
          throw new SessionError(
            `The session file ${pathOf(id)} holds session ${contents.header.id}, not ${id}: it was copied or renamed.`,
            'SESSION_INVALID',
          );
        }
        writer = SessionWriter.append(pathOf(id), contents.validLength);
        if (contents.needsNewline) writer.write('\n');
        // A turn the program left unfinished is closed on disk too, before anything follows it.
        for (const entry of contents.closing) writer.write(entryLine(entry));
        if (contents.closing.length > 0 || contents.needsNewline) await writer.sync();
        const { header } = contents;
        const recorder = new SessionRecorder(fileOf(id, header.cwd), { writer, lock });
        const entries = [...contents.entries, ...contents.closing];
        return session(id, header.cwd, entries, contents.warnings, recorder);
      } catch (error) {
        await writer?.close();
        lock.release();
        throw error;
      }
    },
    list: (listOptions = {}) => listSessionFiles(sessions, listOptions.cwd),
  };
}
