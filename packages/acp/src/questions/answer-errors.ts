import { UserInteractionError } from 'dsh-user-interaction';

/** An `INVALID_ANSWER`: the editor's reply does not fit the question it was shown. */
export function invalidAnswer(problem: string): UserInteractionError {
  return new UserInteractionError(
    'INVALID_ANSWER',
    `The editor returned an answer that does not fit the question: ${problem}.`,
  );
}

/** An `ASK_DECLINED`: the person chose not to answer. */
export function declined(): UserInteractionError {
  return new UserInteractionError('ASK_DECLINED', 'The person chose not to answer the question.');
}

/** An `ASK_CANCELLED`: the person dismissed the question. */
export function cancelled(): UserInteractionError {
  return new UserInteractionError(
    'ASK_CANCELLED',
    'The person dismissed the question without answering.',
  );
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
