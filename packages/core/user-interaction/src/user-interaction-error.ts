import { HARNESS_ERROR, HarnessError, isHarnessError } from './harness-error.js';

/** Every way asking the person can fail. Each is documented in the package README. */
export const USER_INTERACTION_ERROR_CODES = [
  'NO_PROVIDER',
  'DUPLICATE_PROVIDER',
  'INVALID_REQUEST',
  'ASK_ABORTED',
  'ASK_TIMEOUT',
  'ASK_DECLINED',
  'ASK_CANCELLED',
  'INPUT_CLOSED',
  'UNSUPPORTED',
  'INVALID_ANSWER',
  'ASK_FAILED',
] as const;

/** A stable code of a `UserInteractionError`. */
export type UserInteractionErrorCode = (typeof USER_INTERACTION_ERROR_CODES)[number];

/** Options of a `UserInteractionError`. */
export interface UserInteractionErrorOptions extends ErrorOptions {
  /** For `INVALID_REQUEST`: the offending field, such as `options[2].label`. */
  readonly field?: string;
}

/** A failure to ask the person a question, with a stable `code`. */
export class UserInteractionError extends HarnessError {
  declare readonly code: UserInteractionErrorCode;
  /** For `INVALID_REQUEST`: the offending field, such as `options[2].label`. */
  declare readonly field?: string;

  constructor(
    code: UserInteractionErrorCode,
    message: string,
    options: UserInteractionErrorOptions = {},
  ) {
    super(code, message, options);
    this.name = 'UserInteractionError';
    if (options.field !== undefined) this.field = options.field;
  }
}

/** True for a known user-interaction code. */
export function isUserInteractionErrorCode(value: unknown): value is UserInteractionErrorCode {
  return (USER_INTERACTION_ERROR_CODES as readonly unknown[]).includes(value);
}

/**
 * True for a `UserInteractionError` from this or any other copy of the package,
 * optionally with the given code.
 */
export function isUserInteractionError(
  value: unknown,
  code?: UserInteractionErrorCode,
): value is UserInteractionError {
  return (
    isHarnessError(value) &&
    value.name === 'UserInteractionError' &&
    isUserInteractionErrorCode(value.code) &&
    (code === undefined || value.code === code)
  );
}

/**
 * The same failure as a `UserInteractionError` of this copy of the package, for anything a UI
 * threw or rejected with. Reads the error's fields once and never throws, whatever it is (a
 * Proxy, throwing getters): anything that is not a `UserInteractionError` is `ASK_FAILED`, with
 * the original in `cause` and a generic message (its text may carry details the model must not see).
 */
export function toUserInteractionError(error: unknown): UserInteractionError {
  try {
    if (error instanceof UserInteractionError) return error;
    if (typeof error === 'object' && error !== null) {
      // From a second copy of the package: the same code and message, read once each.
      const foreign = error as Record<PropertyKey, unknown>;
      if (foreign[HARNESS_ERROR] === true && foreign.name === 'UserInteractionError') {
        const code = foreign.code;
        const message = foreign.message;
        if (isUserInteractionErrorCode(code) && typeof message === 'string') {
          return new UserInteractionError(code, message, { cause: error });
        }
      }
    }
  } catch {
    // A hostile error: reported as a failure of the UI like any other.
  }
  return new UserInteractionError('ASK_FAILED', 'The UI failed to ask the question.', {
    cause: error,
  });
}
