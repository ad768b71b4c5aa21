import type { AskUserQuestionAnswer } from 'dsh-user-interaction';
import { UserInteractionError } from 'dsh-user-interaction';
import type { QuestionEnding } from './summary-line.js';

/** Why the provider ends a question the person has not answered. */
export type SessionEnd =
  | { readonly code: 'ASK_ABORTED'; readonly timedOut: boolean; readonly cause: unknown }
  | { readonly code: 'INPUT_CLOSED'; readonly message: string };

/** One question on screen, in either mode. */
export interface QuestionSession {
  /** Settles once: the answer, or a `UserInteractionError`. */
  readonly result: Promise<AskUserQuestionAnswer>;
  /** Withdraws the question: its screen is cleaned up and `result` rejects. Idempotent. */
  end(reason: SessionEnd): void;
}

/** The error a provider-ended question rejects with. */
export function sessionEndError(reason: SessionEnd): UserInteractionError {
  if (reason.code === 'ASK_ABORTED') {
    return new UserInteractionError(
      'ASK_ABORTED',
      'The question was withdrawn before the person answered.',
      { cause: reason.cause },
    );
  }
  return new UserInteractionError('INPUT_CLOSED', reason.message);
}

/** How the summary line reports a provider-ended question. */
export function endingOf(reason: SessionEnd): QuestionEnding {
  if (reason.code === 'INPUT_CLOSED') return { kind: 'closed' };
  return { kind: reason.timedOut ? 'timed-out' : 'withdrawn' };
}

/** A deferred result, settled at most once. */
export function deferredResult(): {
  readonly promise: Promise<AskUserQuestionAnswer>;
  resolve(answer: AskUserQuestionAnswer): void;
  reject(error: unknown): void;
} {
  let resolve!: (answer: AskUserQuestionAnswer) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<AskUserQuestionAnswer>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}
