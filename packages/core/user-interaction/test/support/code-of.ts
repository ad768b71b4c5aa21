import { isUserInteractionError, type UserInteractionErrorCode } from '../../src/index.js';

/** The code an ask fails with; fails the test when it succeeds or fails with another error. */
export async function codeOf(promise: Promise<unknown>): Promise<UserInteractionErrorCode> {
  try {
    await promise;
  } catch (error) {
    if (isUserInteractionError(error)) return error.code;
    throw error;
  }
  throw new Error('expected the ask to fail');
}
