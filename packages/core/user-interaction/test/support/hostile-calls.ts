import {
  createUserInteraction,
  UserInteractionError,
  type UserInteractionErrorCode,
  type UserInteractionProvider,
} from '../../src/index.js';

// What the tests of hostile requests and hostile UIs share.

/** Throws, wherever it is used as a getter, a trap or a method. */
export const boom = (): never => {
  throw new Error('boom');
};

/**
 * Calls `ask()` and says how it failed: `'threw'` when it threw instead of returning a
 * promise, else the code of the `UserInteractionError` it rejected with, or `'not a
 * UserInteractionError'`.
 */
export async function outcome(
  ask: () => Promise<unknown>,
): Promise<UserInteractionErrorCode | 'threw' | 'resolved' | 'not a UserInteractionError'> {
  let pending: Promise<unknown>;
  try {
    pending = ask();
  } catch {
    return 'threw';
  }
  try {
    await pending;
    return 'resolved';
  } catch (error) {
    return error instanceof UserInteractionError ? error.code : 'not a UserInteractionError';
  }
}

/** A service whose one UI is `provider`. */
export function withProvider(provider: UserInteractionProvider) {
  const interaction = createUserInteraction();
  interaction.registerProvider(provider);
  return interaction;
}

/** A UI that answers with the first option, or with typed text when there is none. */
export const answerFirst: UserInteractionProvider = {
  async ask(request) {
    const option = request.options?.[0];
    return option === undefined ? { answer: 'typed' } : { answer: option.label, option };
  },
};
