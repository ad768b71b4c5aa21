import { toUserInteractionError } from '../errors/ask-errors.js';
import { isAbortSignal } from '../validation/validate-request.js';
import {
  createPendingQuestion,
  isAborted,
  type PendingQuestion,
  withdrawnBy,
} from './pending-question.js';

/** What `ask()` and `askAll()` hand over: a request with the caller's signal and time limit. */
interface Timed {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** One ask, as the service runs it: every step but the ones that differ by kind. */
export interface Posing<Request extends Timed, Answer> {
  /** The request's signal, as read (it may not be a signal at all). */
  readonly signal: unknown;
  /** A time limit for a request that sets none. */
  readonly defaultTimeoutMs: number | undefined;
  /**
   * Checks the request (`INVALID_REQUEST`) and what stops the active UI from showing it; returns
   * the frozen request and how to show it. Throws the first problem.
   */
  prepare(): {
    readonly valid: Request;
    show(shown: Request, settled: () => boolean): Promise<unknown>;
  };
  /** The UI's answer, checked against the request it was shown. */
  validate(valid: Request, answer: unknown): Answer;
}

/** The UI's answer, checked; a check that throws fails the question with that error. */
function settleAnswer<Answer>(question: PendingQuestion<Answer>, check: () => Answer): void {
  let checked: Answer;
  try {
    checked = check();
  } catch (error) {
    question.reject(error);
    return;
  }
  question.resolve(checked);
}

/**
 * Runs an ask: an aborted signal first, then the checks, then the UI, under the caller's
 * signal and time limit. Never throws; rejects only with `UserInteractionError`.
 */
export function poseQuestion<Request extends Timed, Answer>(
  posing: Posing<Request, Answer>,
): Promise<Answer> {
  const signal = isAbortSignal(posing.signal) ? posing.signal : undefined;
  let prepared: ReturnType<Posing<Request, Answer>['prepare']>;
  try {
    // An aborted signal wins over every other problem of the request.
    if (signal !== undefined && isAborted(signal)) throw withdrawnBy(signal);
    prepared = posing.prepare();
  } catch (error) {
    return Promise.reject(toUserInteractionError(error));
  }
  const { valid, show } = prepared;
  const timeoutMs = valid.timeoutMs ?? posing.defaultTimeoutMs;
  const question = createPendingQuestion<Answer>({
    ...(signal !== undefined && { signal }),
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
  if (question.settled) return question.promise;
  // With a time limit the UI gets the question's own signal, which aborts at the limit too
  // (its reason the ASK_TIMEOUT error), so the UI can clear its screen; without one, the
  // caller's signal is already the right one.
  const shown =
    timeoutMs === undefined
      ? valid
      : (Object.freeze({ ...valid, signal: question.signal, timeoutMs }) as Request);
  show(shown, () => question.settled).then(
    (answer) => settleAnswer(question, () => posing.validate(valid, answer)),
    (error: unknown) => question.reject(error),
  );
  // Settled by the caller's signal or the time limit at once, even when the UI ignores its signal.
  return question.promise;
}
