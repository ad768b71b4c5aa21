import {
  type AskUserQuestionAnswer,
  isUserInteractionError,
  type PendingQuestion,
} from 'dsh-user-interaction/provider';
import type { UnansweredEnding } from './summary-line.js';

/**
 * A question on screen: the provider's pending question. The screen settles it when the
 * person answers, declines or cancels; when it is withdrawn instead (its signal, the time
 * limit, the UI closing), the screen only clears itself.
 */
export type ScreenQuestion = PendingQuestion<AskUserQuestionAnswer>;

/** How the summary line reports a question withdrawn while it was on screen. */
export function withdrawnEnding(reason: unknown): UnansweredEnding {
  if (isUserInteractionError(reason, 'INPUT_CLOSED')) return { kind: 'closed' };
  // Under a time limit, the service withdraws the question with ASK_TIMEOUT as the reason.
  const cause = isUserInteractionError(reason) ? reason.cause : undefined;
  if (isUserInteractionError(cause, 'ASK_TIMEOUT')) return { kind: 'timed-out' };
  return { kind: 'withdrawn' };
}

/**
 * Calls `onWithdrawn` with the ending to show when the question is withdrawn. Returns the
 * function that stops listening, for when the screen settles the question itself.
 */
export function whenWithdrawn(
  question: PendingQuestion<unknown>,
  onWithdrawn: (ending: UnansweredEnding) => void,
): () => void {
  const { signal } = question;
  const listener = (): void => onWithdrawn(withdrawnEnding(signal.reason));
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}
