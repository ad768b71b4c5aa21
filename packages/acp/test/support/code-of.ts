import { isUserInteractionError, type UserInteractionErrorCode } from 'dsh-user-interaction';

/** The code a promise rejects with, or `resolved`; any error but a `UserInteractionError` is thrown. */
export async function codeOf(
  promise: Promise<unknown>,
): Promise<UserInteractionErrorCode | 'resolved'> {
  try {
    await promise;
  } catch (error) {
    if (isUserInteractionError(error)) return error.code;
    throw error;
  }
  return 'resolved';
}

/** The code `run` throws, or `none`; any error but a `UserInteractionError` is thrown. */
export function thrownCode(run: () => unknown): UserInteractionErrorCode | 'none' {
  try {
    run();
  } catch (error) {
    if (isUserInteractionError(error)) return error.code;
    throw error;
  }
  return 'none';
}
