import {
  close,
  closeSync,
  fchmodSync,
  fsync,
  ftruncateSync,
  open,
  openSync,
  writeSync,
} from 'node:fs';
import { SessionError, systemCode } from './session-error.js';

function fsyncOf(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    fsync(fd, (error) => (error ? reject(error) : resolve())),
  );
}

function closeOf(fd: number): Promise<void> {
  return new Promise((resolve) => close(fd, () => resolve()));
}

function openOf(path: string, flags: string, mode?: number): Promise<number> {
  return new Promise((resolve, reject) =>
    open(path, flags, mode, (error, fd) => (error ? reject(error) : resolve(fd))),
  );
}

/**
 * Makes the names of new files in a folder durable: an fsync of the folder (not possible on
 * every system), one for every file created since the last one began, however many wait. The
 * folder is opened, synced and closed off the main thread.
 */
export class FolderSync {
  #created = 0;
  #synced = 0;
  #syncing: Promise<void> | undefined;

  constructor(readonly folder: string) {}

  /**
   * Counts a file just created in the folder and starts making its name durable at once (a
   * new session's first prompt, long before its first answer needs it); resolves once it is.
   * Never rejects: where a folder cannot be synced, the file's own fsync is what can be done.
   */
  async fileCreated(): Promise<void> {
    const target = ++this.#created;
    while (this.#synced < target) {
      this.#syncing ??= this.#syncNow();
      await this.#syncing;
    }
  }

  async #syncNow(): Promise<void> {
    const upTo = this.#created;
    let fd: number | undefined;
    try {
      fd = await openOf(this.folder, 'r');
      await fsyncOf(fd);
    } catch {
      // Windows cannot open a folder; there the file's own fsync is what can be done.
    } finally {
      if (fd !== undefined) closeSync(fd);
      this.#synced = Math.max(this.#synced, upTo);
      this.#syncing = undefined;
    }
  }
}

/**
 * An append-only session file. Each line goes to the system in one write as it comes, so a
 * crash of the process loses at most the line being written; `sync` (one fsync, shared by
 * every caller waiting at the same time) makes what was written survive a crash of the
 * machine too. The first failure is kept: later writes are skipped and `sync` rejects with
 * `SESSION_WRITE_FAILED`.
 */
export class SessionWriter {
  #fd: number | undefined;
  #written = 0;
  #synced = 0;
  #syncing: Promise<void> | undefined;
  #failure: SessionError | undefined;
  /** A new file's name being made durable (through its folder), from its creation on. */
  #named: Promise<void> | undefined;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.#fd = fd;
  }

  /**
   * Creates the file (it must not exist), readable by its owner only, and writes `firstLine`.
   * Its name starts becoming durable at once, through `folder`, off the path of its first
   * sync, which waits for it too.
   */
  static create(path: string, firstLine: string, folder: FolderSync): SessionWriter {
    const writer = SessionWriter.#created(path, openSync(path, 'ax', 0o600), folder);
    writer.write(firstLine);
    return writer;
  }

  /**
   * `create` with no first line, made off the main thread: the file of a session prepared
   * before its first prompt. Its name starts becoming durable at once, through `folder`.
   */
  static async prepare(path: string, folder: FolderSync): Promise<SessionWriter> {
    return SessionWriter.#created(path, await openOf(path, 'ax', 0o600), folder);
  }

  /** The writer of a file just created as `fd`: its mode set exactly, its name being synced. */
  static #created(path: string, fd: number, folder: FolderSync): SessionWriter {
    const writer = new SessionWriter(path, fd);
    writer.#named = folder.fileCreated();
    try {
      // The creation mode went through the umask: set it exactly.
      fchmodSync(fd, 0o600);
    } catch (error) {
      writer.#fail(error);
    }
    return writer;
  }

  /**
   * Appends to the existing file `path`, open as `fd` (for appending, by the caller, who checked
   * what it is), first cutting it to `length` when given (a torn last line). Closes `fd` if
   * that fails.
   */
  static append(path: string, fd: number, length?: number): SessionWriter {
    if (length !== undefined) {
      try {
        ftruncateSync(fd, length);
      } catch (error) {
        closeSync(fd);
        throw error;
      }
    }
    return new SessionWriter(path, fd);
  }

  /** The first failure, if any: nothing is written after it. */
  get failure(): SessionError | undefined {
    return this.#failure;
  }

  /** Writes a whole line (with its newline). */
  write(line: string): void {
    if (this.#fd === undefined || this.#failure !== undefined) return;
    const bytes = Buffer.from(line, 'utf8');
    try {
      for (let offset = 0; offset < bytes.length; ) {
        offset += writeSync(this.#fd, bytes, offset);
      }
      this.#written++;
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Resolves once every line written so far is on disk; rejects with the first failure. */
  async sync(): Promise<void> {
    const target = this.#written;
    while (this.#synced < target) {
      if (this.#failure !== undefined) throw this.#failure;
      this.#syncing ??= this.#syncNow();
      await this.#syncing;
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Waits for a sync under way, then closes the file. Idempotent. */
  async close(): Promise<void> {
    await this.#syncing;
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) await closeOf(fd);
  }

  async #syncNow(): Promise<void> {
    const fd = this.#fd;
    const upTo = this.#written;
    try {
      if (fd === undefined) throw Object.assign(new Error('closed'), { code: 'EBADF' });
      // The file and its name (long since durable but in the first moments of a session).
      await Promise.all([fsyncOf(fd), this.#named]);
      this.#synced = Math.max(this.#synced, upTo);
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#syncing = undefined;
    }
  }

  #fail(error: unknown): void {
    this.#failure ??= new SessionError(
      `Cannot save the conversation to ${this.path} (${systemCode(error)}); what was said since is kept in memory only.`,
      'SESSION_WRITE_FAILED',
      { cause: error },
    );
  }
}
