/**
 * A timer that fires when a server has said nothing for `limitMs`, except while it is paused (a
 * question waits for the person: that time is theirs, not the server's).
 */
export class IdleWatch {
  readonly #limitMs: number;
  readonly #onIdle: () => void;
  #timer: NodeJS.Timeout | undefined;
  #paused = false;
  #stopped = false;

  constructor(limitMs: number, onIdle: () => void, paused: boolean) {
    this.#limitMs = limitMs;
    this.#onIdle = onIdle;
    this.#paused = paused;
    this.#arm();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || this.#paused || !Number.isFinite(this.#limitMs)) return;
    this.#timer = setTimeout(() => {
      this.#stopped = true;
      this.#onIdle();
    }, this.#limitMs);
  }

  /** The server said something (progress): the limit starts again. */
  touch(): void {
    this.#arm();
  }

  /** Pauses while a question waits for the person; the limit starts again when it resumes. */
  pause(paused: boolean): void {
    this.#paused = paused;
    this.#arm();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }
}
