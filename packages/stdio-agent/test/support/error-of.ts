/** What a failed question rejected with: a `UserInteractionError`, as far as the tests read it. */
export interface QuestionError {
  code?: string;
  name?: string;
  message?: string;
  cause?: unknown;
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function errorOf(promise: Promise<unknown>): Promise<QuestionError> {
  return promise.then(
    () => {
      throw new Error('Expected the question to fail.');
    },
    (error: QuestionError) => error,
  );
}
