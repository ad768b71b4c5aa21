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

/** What a new session needs to make its file. */
export interface NewSessionFile {
  readonly id: string;
  readonly cwd: string;
  /** Takes the session's lock (the folders made first). */
  lock(): Promise<SessionLock>;
  /** Creates the file with these first lines. */
  create(firstLines: string): Promise<SessionWriter>;
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
 * The session behind a `StoredSession`. A new one makes its file (and takes its lock) as its
 * first turn begins, off the main thread, so that a session nobody spoke in leaves nothing
 * behind; from then on each entry is written as it comes. The first failure to write is
 * reported once, by `flush`: the conversation goes on in memory after it.
 */
export class SessionRecorder implements ConversationRecorder {
  #writer: SessionWriter | undefined;
  #lock: SessionLock | undefined;
  #making: Promise<void> | undefined;
  /** Lines added before the file was made (by a caller that did not `begin`), in order. */
  #waiting: string[] = [];
  #failure: SessionError | undefined;
  #reported = false;
  #closed = false;

  constructor(
    private readonly file: NewSessionFile,
    opened?: { readonly writer: SessionWriter; readonly lock: SessionLock },
  ) {
    this.#writer = opened?.writer;
    this.#lock = opened?.lock;
  }

  begin(prompt: string): Promise<void> {
    if (this.#writer !== undefined || this.#closed || this.#failure !== undefined) {
      return Promise.resolve();
    }
    this.#making ??= this.#make(sessionTitle(prompt));
    return this.#making;
  }

  add(entry: ConversationEntry): void {
    if (this.#closed || this.#failure !== undefined) return;
    const line = entryLine(entry);
    if (this.#writer !== undefined) {
      this.#writer.write(line);
      return;
    }
    this.#waiting.push(line);
    this.#making ??= this.#make(entry.type === 'prompt' ? sessionTitle(entry.text) : '');
  }

  async flush(): Promise<void> {
    await this.#making;
    const failure = this.#failure ?? this.#writer?.failure;
    if (failure === undefined) {
      await this.#writer?.sync().catch((error: unknown) => this.#report(error));
      return;
    }
    this.#report(failure);
  }

  /** Closes the file and releases the lock. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#making;
    // Whatever was written last is made durable too (nothing to do when it already is).
    await this.#writer?.sync().catch(() => {});
    await this.#writer?.close();
    await this.#lock?.release();
  }

  async #make(title: string): Promise<void> {
    try {
      this.#lock = await this.file.lock();
      const header = headerLine({
        id: this.file.id,
        cwd: this.file.cwd,
        createdAt: new Date().toISOString(),
        title,
      });
      // The header and the lines so far leave in one write.
      const writer = await this.file.create(header + this.#waiting.splice(0).join(''));
      this.#writer = writer;
    } catch (error) {
      this.#waiting = [];
      await this.#lock?.release();
      this.#lock = undefined;
      this.#failure = creationFailure(error);
    }
  }

  /** Rejects with a failure the first time only: the person is told once. */
  #report(failure: unknown): void {
    if (this.#reported) return;
    this.#reported = true;
    throw failure;
  }
}
