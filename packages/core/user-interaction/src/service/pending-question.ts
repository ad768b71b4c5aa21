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

/** Starts a pending question. Never throws: a signal that cannot be listened to rejects it. */
export function createPendingQuestion<T>(options: PendingQuestionOptions = {}): PendingQuestion<T> {
  const { signal, timeoutMs, onSettle } = options;
  const controller = new AbortController();
  let resolvePromise!: (answer: T) => void;
  let rejectPromise!: (error: UserInteractionError) => void;
  const promise = new Promise<T>((resolve, reject) => {
    resolvePromise = resolve;
    rejectPromise = reject;
  });
  let settled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (): void => {
    question.withdraw(withdrawnBy(signal as AbortSignal));
  };

  /** Marks the question settled and cleans up; a withdrawal aborts the question's signal first. */
  function settle(withdrawal?: UserInteractionError): boolean {
    if (settled) return false;
    settled = true;
    if (timer !== undefined) clearTimeout(timer);
    try {
      signal?.removeEventListener('abort', onAbort);
    } catch {
      // A signal-like object that cannot remove a listener keeps it; the question is settled anyway.
    }
    // What shows the question clears it before anyone learns that it settled.
    if (withdrawal !== undefined) controller.abort(withdrawal);
    onSettle?.();
    return true;
  }

  const question: PendingQuestion<T> = {
    promise,
    signal: controller.signal,
    get settled() {
      return settled;
    },
    resolve(answer) {
      if (!settle()) return false;
      resolvePromise(answer);
      return true;
    },
    reject(error) {
      if (!settle()) return false;
      rejectPromise(toUserInteractionError(error));
      return true;
    },
    withdraw(error) {
      if (!settle(error)) return false;
      rejectPromise(error);
      return true;
    },
  };

  if (signal !== undefined) {
    if (isAborted(signal)) {
      onAbort();
      return question;
    }
    try {
      signal.addEventListener('abort', onAbort, { once: true });
    } catch (error) {
      question.reject(invalidRequestError('signal', 'could not be listened to', error));
      return question;
    }
    // A signal-like object may have aborted while its listener was added.
    if (isAborted(signal)) onAbort();
  }
  if (timeoutMs !== undefined && !settled) {
    timer = setTimeout(() => question.withdraw(askTimeoutError(timeoutMs)), timeoutMs);
  }
  return question;
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
