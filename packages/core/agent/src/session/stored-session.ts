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

/** What a new session needs to create its file at its first entry. */
export interface NewSessionFile {
  readonly id: string;
  readonly cwd: string;
  /** Takes the session's lock (the folders made first). */
  lock(): SessionLock;
  /** Creates the file with these first lines. */
  create(firstLines: string): SessionWriter;
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
 * The session behind a `StoredSession`. A new one creates its file (header and first prompt
 * in one write) and takes its lock at its first entry, so that a session nobody spoke in
 * leaves nothing behind; the file's name starts becoming durable then, long before an answer
 * waits for it. Every entry goes to the system as it is added (a crash of the process loses
 * at most the line being written). `flush` makes them survive a crash of the machine too (one
 * fsync, shared by the flushes waiting at the same time), except after a turn's end: what a
 * turn adds after its last answer (the closing text, results of calls it cancelled, the end)
 * can only be lost to a power failure, and a turn found unfinished on load is closed as
 * interrupted, so the end's fsync is left to the next answer or to `close`. The first failure
 * to write is reported once, by `flush`: the conversation goes on in memory after it.
 */
export class SessionRecorder implements ConversationRecorder {
  #writer: SessionWriter | undefined;
  #lock: SessionLock | undefined;
  #failure: SessionError | undefined;
  #reported = false;
  #closed = false;
  /** Whether the last entry added ended a turn: its flush needs no fsync. */
  #turnEnded = false;

  constructor(
    private readonly file: NewSessionFile,
    opened?: { readonly writer: SessionWriter; readonly lock: SessionLock },
  ) {
    this.#writer = opened?.writer;
    this.#lock = opened?.lock;
  }

  add(entry: ConversationEntry): void {
    if (this.#closed || this.#failure !== undefined) return;
    this.#turnEnded = entry.type === 'turn-end';
    const line = entryLine(entry);
    if (this.#writer !== undefined) {
      this.#writer.write(line);
      return;
    }
    try {
      this.#lock = this.file.lock();
      const title = entry.type === 'prompt' ? sessionTitle(entry.text) : '';
      const header = headerLine({
        id: this.file.id,
        cwd: this.file.cwd,
        createdAt: new Date().toISOString(),
        title,
      });
      this.#writer = this.file.create(header + line);
    } catch (error) {
      this.#lock?.release();
      this.#lock = undefined;
      this.#failure = creationFailure(error);
    }
  }

  async flush(): Promise<void> {
    const failure = this.#failure ?? this.#writer?.failure;
    if (failure !== undefined) {
      this.#report(failure);
      return;
    }
    // Every answer of the turn was synced before the agent went on with it; what followed is
    // written, and the machine's crash can only lose it to a turn closed as interrupted.
    if (this.#turnEnded) return;
    await this.#writer?.sync().catch((error: unknown) => this.#report(error));
  }

  /** Closes the file and releases the lock. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Whatever was written last is made durable too (nothing to do when it already is).
    await this.#writer?.sync().catch(() => {});
    await this.#writer?.close();
    this.#lock?.release();
  }

  /** Rejects with a failure the first time only: the person is told once. */
  #report(failure: unknown): void {
    if (this.#reported) return;
    this.#reported = true;
    throw failure;
  }
}
