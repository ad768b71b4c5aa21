import { expect } from 'vitest';
import { UserInteractionError, validateRequest } from '../../src/index.js';

/**
 * The field `check` (`validateRequest` unless given) names for a refused request (its message
 * names it too), or `undefined` for an accepted one; any failure other than `INVALID_REQUEST`
 * fails the test.
 */
export function fieldOf(
  request: unknown,
  check: (request: unknown) => unknown = validateRequest,
): string | undefined {
  try {
    check(request);
  } catch (error) {
    expect(error).toBeInstanceOf(UserInteractionError);
    const failure = error as UserInteractionError;
    expect(failure.code).toBe('INVALID_REQUEST');
    expect(failure.message).toContain(`\`${failure.field}\``);
    return failure.field;
  }
  return undefined;
}
