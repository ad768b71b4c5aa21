import type { ConversationEntry, ConversationRecorder } from '../loop/conversation-entry.js';
import { SessionError, systemCode } from './session-error.js';
import { entryLine, headerLine } from './session-line.js';
import type { SessionLock } from './session-lock.js';
import { sessionTitle } from './session-title.js';
import type { SessionWriter } from './session-writer.js';

/** A session of the store: its conversation so far, and the recorder that adds to it. */
export interface StoredSession {
  readonly id: string;
  /** The working directory the session belongs to. */
  readonly cwd: string;
  /** The conversation restored from the file, a turn left unfinished closed (empty when new). */
  readonly entries: readonly ConversationEntry[];
  /** What was wrong with the file but could be skipped (a torn last line). */
  readonly warnings: readonly string[];
  /** Writes the conversation to the session's file as it happens: `createAgent`'s `recorder`. */
  readonly recorder: ConversationRecorder;
  /** Waits for the writes under way, closes the file and releases the lock. Idempotent. */
  close(): Promise<void>;
}

/** What a new session needs to create its file, ahead of its first entry or at it. */
export interface NewSessionFile {
  readonly id: string;
  readonly cwd: string;
  /** Takes the session's lock (the folders made first). */
  lock(): SessionLock;
  /** Creates the file with these first lines. */
  create(firstLines: string): SessionWriter;
  /** Takes the lock and creates the file, empty, off the main thread (the folders made first). */
  prepare(): Promise<{ readonly writer: SessionWriter; readonly lock: SessionLock }>;
  /** Removes the file `prepare` made, when the session ends with nothing said in it. */
  discard(): void;
}

function creationFailure(error: unknown): SessionError {
  if (error instanceof SessionError) return error;
  return new SessionError(
    `Cannot save the conversation (${systemCode(error)}); what is said is kept in memory only. Pass --state-dir to save it elsewhere, or --no-history.`,
    'SESSION_WRITE_FAILED',
    { cause: error },
  );
}

/**
 * The session behind a `StoredSession`. A new one prepares its lock and its (empty) file off
 * the main thread as soon as it is made, and its file's name starts becoming durable then:
 * its first prompt writes the header and the prompt in one write, with nothing to create, and
 * its first answer never waits for a folder's fsync. One spoken to before the preparation
 * began (in the code that made it, before it awaits anything) creates them then, on the spot; lines added while it is
 * under way are written the moment it ends, and a flush waits for them. A session that ends
 * with nothing said in it removes its empty file: it leaves nothing behind.
 *
 * Every entry goes to the system as it is added (a crash of the process loses at most the line
 * being written). `flush` makes them survive a crash of the machine too (one fsync, shared by
 * the flushes waiting at the same time), except at the end of a turn that finished: what it
 * added after its last answer (the closing text, the end) can only be lost to a power failure,
 * and a turn found without its end goes on from its last answer (or is closed as interrupted)
 * when the session is opened again, so that fsync is left to the next answer or to `close`.
 * The end of a turn cancelled, failed or stopped by the step limit is synced: found without
 * it, the turn would go on where the person or the loop stopped it. The first failure to
 * write is reported once, by `flush`: the conversation goes on in memory after it.
 */
export class SessionRecorder implements ConversationRecorder {
  #writer: SessionWriter | undefined;
  #lock: SessionLock | undefined;
  #failure: SessionError | undefined;
  #reported = false;
  #closed = false;
  /** Whether the last entry added ended a turn that finished: its flush needs no fsync. */
  #finished = false;
  /** Whether the header was written (or is waiting in `#pending`). */
  #begun: boolean;
  /** Whether the preparation of a new session's files is yet to begin. */
  #scheduled: boolean;
  /** The preparation under way. */
  #preparing: Promise<void> | undefined;
  /** Lines added while the preparation was under way, in order. */
  #pending = '';

  constructor(
    private readonly file: NewSessionFile,
    opened?: { readonly writer: SessionWriter; readonly lock: SessionLock },
  ) {
    this.#writer = opened?.writer;
    this.#lock = opened?.lock;
    this.#begun = opened !== undefined;
    this.#scheduled = opened === undefined;
    // Begun once the code that made the session has run (before any I/O callback): a server's
    // next message never finds it unbegun, so its files are never made on the main thread,
    // where a file's creation can wait for the journal commit of other sessions' fsyncs.
    if (this.#scheduled) {
      queueMicrotask(() => {
        if (!this.#scheduled) return;
        this.#scheduled = false;
        this.#preparing = this.#prepare();
      });
    }
  }

  add(entry: ConversationEntry): void {
    if (this.#closed || this.#failure !== undefined) return;
    this.#finished = entry.type === 'turn-end' && entry.reason === 'finished';
    let line = entryLine(entry);
    if (!this.#begun) {
      this.#begun = true;
      const title = entry.type === 'prompt' ? sessionTitle(entry.text) : '';
      const header = headerLine({
        id: this.file.id,
        cwd: this.file.cwd,
        createdAt: new Date().toISOString(),
        title,
      });
      line = header + line;
    }
    if (this.#writer !== undefined) {
      this.#writer.write(line);
      return;
    }
    if (this.#preparing !== undefined) {
      this.#pending += line;
      return;
    }
    // Spoken to before the preparation began (in the code that made it): the files are made
    // here, at once.
    this.#scheduled = false;
    try {
      this.#lock = this.file.lock();
      this.#writer = this.file.create(line);
    } catch (error) {
      this.#lock?.release();
      this.#lock = undefined;
      this.#failure = creationFailure(error);
    }
  }

  /** While the new session's files are being made, until the lines held meanwhile are written. */
  written(): Promise<void> | undefined {
    return this.#preparing;
  }

  async flush(): Promise<void> {
    await this.#preparing;
    const failure = this.#failure ?? this.#writer?.failure;
    if (failure !== undefined) {
      this.#report(failure);
      return;
    }
    // Every answer of the turn was synced before the agent went on with it; what followed is
    // written, and the machine's crash can only lose it to a turn that goes on from its last
    // answer (or is closed as interrupted) when the session is opened again.
    if (this.#finished) return;
    await this.#writer?.sync().catch((error: unknown) => this.#report(error));
  }

  /** Closes the file and releases the lock. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#scheduled = false;
    await this.#preparing;
    if (!this.#begun && this.#writer !== undefined) {
      // Prepared, and nothing was said: no session to keep.
      await this.#writer.close();
      this.file.discard();
      this.#lock?.release();
      return;
    }
    // Whatever was written last is made durable too (nothing to do when it already is).
    await this.#writer?.sync().catch(() => {});
    await this.#writer?.close();
    this.#lock?.release();
  }

  async #prepare(): Promise<void> {
    try {
      const { writer, lock } = await this.file.prepare();
      this.#writer = writer;
      this.#lock = lock;
      if (this.#pending !== '') writer.write(this.#pending);
    } catch (error) {
      this.#failure ??= creationFailure(error);
    } finally {
      this.#pending = '';
      this.#preparing = undefined;
    }
  }

  /** Rejects with a failure the first time only: the person is told once. */
  #report(failure: unknown): void {
    if (this.#reported) return;
    this.#reported = true;
    throw failure;
  }
}
