function noop(): void {}

interface Load {
  /** Aborted by a `session/close` of the session while it loads. */
  readonly closing: AbortController;
  /** Settles when the load has ended, and freed what it held. */
  readonly done: Promise<void>;
}

/**
 * The `session/load` requests in progress, by session id: a `session/close` of a session that
 * loads wins, failing the load, and answers once the load has freed the session (and its lock).
 */
export class SessionLoads {
  readonly #loads = new Map<string, Set<Load>>();

  /** Runs `load` of the session, with the signal a `session/close` of it aborts. */
  async run<T>(sessionId: string, load: (closing: AbortSignal) => Promise<T>): Promise<T> {
    const closing = new AbortController();
    const loading = load(closing.signal);
    const entry: Load = { closing, done: loading.then(noop, noop) };
    const ofSession = this.#loads.get(sessionId) ?? new Set();
    this.#loads.set(sessionId, ofSession.add(entry));
    try {
      return await loading;
    } finally {
      ofSession.delete(entry);
      if (ofSession.size === 0 && this.#loads.get(sessionId) === ofSession) {
        this.#loads.delete(sessionId);
      }
    }
  }

  /** Fails the session's loads in progress; resolves once each has ended. */
  async close(sessionId: string): Promise<void> {
    const inProgress = [...(this.#loads.get(sessionId) ?? [])];
    for (const load of inProgress) load.closing.abort();
    await Promise.all(inProgress.map((load) => load.done));
  }
}
