import {
  askAbortedError,
  askTimeoutError,
  invalidRequestError,
  toUserInteractionError,
} from '../errors/ask-errors.js';
import { UserInteractionError } from '../errors/user-interaction-error.js';

/** What can withdraw a pending question. */
export interface PendingQuestionOptions {
  /**
   * Withdraws the question when it aborts: it rejects with `ASK_ABORTED`, the signal's reason
   * in `cause` (for a UI asked by the service under a time limit, that reason is the
   * `ASK_TIMEOUT` error).
   */
  readonly signal?: AbortSignal;
  /** A time limit in milliseconds: past it the question rejects with `ASK_TIMEOUT`. */
  readonly timeoutMs?: number;
  /** Runs once, synchronously, when the question settles, however it settles (a UI's cleanup). */
  readonly onSettle?: () => void;
  /**
   * Runs once, synchronously, when the question is withdrawn, with the error it rejects with,
   * just before `signal` aborts: for a UI that cancels what shows it without reading `signal`
   * (whose AbortController is made on first read; a UI with a request of its own to cancel
   * spares it). An error it throws is ignored: the question is withdrawn anyway.
   */
  readonly onWithdraw?: (error: UserInteractionError) => void;
}

/**
 * One question a UI holds until it settles: answered, failed, or withdrawn (by its signal, its
 * time limit, or whoever holds it). It settles once; every listener and timer is removed when
 * it does. This is the lifecycle every UI shares, so a UI writes only its own rendering.
 */
export interface PendingQuestion<T> {
  /** Settles once: the answer, or a `UserInteractionError`. Never rejects with anything else. */
  readonly promise: Promise<T>;
  /**
   * Aborts when the question is withdrawn (never when it is answered or the UI fails it), its
   * reason the error the question rejected with: give it to what shows the question, so it
   * clears its screen or cancels its request.
   */
  readonly signal: AbortSignal;
  /** Whether the question has settled. */
  readonly settled: boolean;
  /** Settles with the answer; `false` (and nothing happens) when already settled. */
  resolve(answer: T): boolean;
  /** Settles with a failure of the UI: anything but a `UserInteractionError` becomes `ASK_FAILED`. */
  reject(error: unknown): boolean;
  /** Withdraws the question with `error`: it settles, and `signal` aborts with `error`. */
  withdraw(error: UserInteractionError): boolean;
}

/** `true` when the signal has aborted; a signal-like object that cannot say is not aborted. */
export function isAborted(signal: AbortSignal): boolean {
  try {
    return signal.aborted === true;
  } catch {
    return false;
  }
}

/** The error of a question withdrawn by `signal`. Never throws, whatever the signal is. */
export function withdrawnBy(signal: AbortSignal): UserInteractionError {
  let reason: unknown;
  try {
    reason = signal.reason;
  } catch (error) {
    return invalidRequestError(
      'signal.reason',
      'could not be read (a getter or Proxy trap threw)',
      error,
    );
  }
  return askAbortedError(reason);
}

/** One pending question; made by `createPendingQuestion`. */
class Question<T> implements PendingQuestion<T> {
  readonly promise: Promise<T>;
  readonly #resolve: (answer: T) => void;
  readonly #reject: (error: UserInteractionError) => void;
  readonly #source: AbortSignal | undefined;
  readonly #onSettle: (() => void) | undefined;
  readonly #onWithdraw: ((error: UserInteractionError) => void) | undefined;
  // Made on first use: most questions settle without anyone reading their signal.
  #controller: AbortController | undefined;
  #withdrawnWith: UserInteractionError | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #settled = false;
  readonly #onAbort = (): void => {
    this.withdraw(withdrawnBy(this.#source as AbortSignal));
  };

  constructor({ signal, timeoutMs, onSettle, onWithdraw }: PendingQuestionOptions) {
    let resolve!: (answer: T) => void;
    let reject!: (error: UserInteractionError) => void;
    this.promise = new Promise<T>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    this.#resolve = resolve;
    this.#reject = reject;
    this.#source = signal;
    this.#onSettle = onSettle;
    this.#onWithdraw = onWithdraw;
    if (signal !== undefined && !this.#listen(signal)) return;
    if (timeoutMs !== undefined) {
      this.#timer = setTimeout(() => this.withdraw(askTimeoutError(timeoutMs)), timeoutMs);
    }
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#withdrawnWith !== undefined) this.#controller.abort(this.#withdrawnWith);
    }
    return this.#controller.signal;
  }

  get settled(): boolean {
    return this.#settled;
  }

  resolve(answer: T): boolean {
    if (!this.#settle()) return false;
    this.#resolve(answer);
    return true;
  }

  reject(error: unknown): boolean {
    if (!this.#settle()) return false;
    this.#reject(toUserInteractionError(error));
    return true;
  }

  withdraw(error: UserInteractionError): boolean {
    if (!this.#settle(error)) return false;
    this.#reject(error);
    return true;
  }

  /** Listens to the caller's signal; `false` when that already settled the question. */
  #listen(signal: AbortSignal): boolean {
    if (isAborted(signal)) {
      this.#onAbort();
      return false;
    }
    try {
      signal.addEventListener('abort', this.#onAbort, { once: true });
    } catch (error) {
      this.reject(invalidRequestError('signal', 'could not be listened to', error));
      return false;
    }
    // A signal-like object may have aborted while its listener was added.
    if (isAborted(signal)) this.#onAbort();
    return !this.#settled;
  }

  /** Marks the question settled and cleans up; a withdrawal aborts the question's signal first. */
  #settle(withdrawal?: UserInteractionError): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    try {
      this.#source?.removeEventListener('abort', this.#onAbort);
    } catch {
      // A signal-like object that cannot remove a listener keeps it; the question is settled anyway.
    }
    // What shows the question clears it before anyone learns that it settled.
    if (withdrawal !== undefined) {
      this.#withdrawnWith = withdrawal;
      try {
        this.#onWithdraw?.(withdrawal);
      } catch {
        // What shows the question failed to clear it; the question is withdrawn all the same.
      }
      this.#controller?.abort(withdrawal);
    }
    this.#onSettle?.();
    return true;
  }
}

/** Starts a pending question. Never throws: a signal that cannot be listened to rejects it. */
export function createPendingQuestion<T>(options: PendingQuestionOptions = {}): PendingQuestion<T> {
  return new Question<T>(options);
}

/** A copy of `error` for one more question, with the same cause (or `error` itself as the cause). */
function copyOf(error: UserInteractionError): UserInteractionError {
  return new UserInteractionError(error.message, error.code, { cause: error.cause ?? error });
}

/**
 * The questions a UI holds: each leaves the set when it settles, and the UI closes them all
 * at once when nobody can answer any more (the input ended, the connection closed, it was
 * disposed).
 */
export class PendingQuestions<T> {
  readonly #open = new Set<PendingQuestion<T>>();
  #closed: UserInteractionError | undefined;

  /** Questions not settled yet. */
  get size(): number {
    return this.#open.size;
  }

  /** The error the set was closed with, if it was. */
  get closed(): UserInteractionError | undefined {
    return this.#closed;
  }

  /** A new pending question, held until it settles; in a closed set, it starts withdrawn. */
  open(options: PendingQuestionOptions = {}): PendingQuestion<T> {
    // Settled while it is made (an aborted signal), it is never added.
    let added: PendingQuestion<T> | undefined;
    const question = createPendingQuestion<T>({
      ...options,
      onSettle: () => {
        if (added !== undefined) this.#open.delete(added);
        options.onSettle?.();
      },
    });
    const closed = this.#closed;
    if (closed !== undefined) {
      question.withdraw(copyOf(closed));
    } else if (!question.settled) {
      added = question;
      this.#open.add(question);
    }
    return question;
  }

  /** Withdraws every open question with `error` (each gets its own copy, with the same cause). */
  withdrawAll(error: UserInteractionError): void {
    for (const question of [...this.#open]) {
      question.withdraw(copyOf(error));
    }
  }

  /** Withdraws every open question with `error`, and every later one at once. Idempotent. */
  close(error: UserInteractionError): void {
    if (this.#closed !== undefined) return;
    this.#closed = error;
    this.withdrawAll(error);
  }
}
