import { HarnessError } from './harness-error.js';

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
export class UserInteractionError extends HarnessError<UserInteractionErrorCode> {
  /** For `INVALID_REQUEST`: the offending field, such as `options[2].label`. */
  declare readonly field?: string;

  constructor(
    message: string,
    code: UserInteractionErrorCode,
    options: UserInteractionErrorOptions = {},
  ) {
    super(message, code, options);
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
export const isUserInteractionError = HarnessError.define(
  UserInteractionError,
  'UserInteractionError',
  USER_INTERACTION_ERROR_CODES,
);
