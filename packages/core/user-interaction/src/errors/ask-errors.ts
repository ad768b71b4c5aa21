import { hasErrorMarker } from './harness-error.js';
import { isUserInteractionErrorCode, UserInteractionError } from './user-interaction-error.js';

// One factory per code, each with the one message of that code; UIs pass only what differs (which
// field, why, how long), so every UI fails the same way to the model.

/** `NO_PROVIDER`: no UI is registered in the context. */
export function noProviderError(): UserInteractionError {
  return new UserInteractionError(
    'No UI is available to ask the person a question.',
    'NO_PROVIDER',
  );
}

/** `DUPLICATE_PROVIDER`: a UI is already registered; the new one was refused. */
export function duplicateProviderError(): UserInteractionError {
  return new UserInteractionError(
    'A UI provider is already registered in this context; dispose its registration first.',
    'DUPLICATE_PROVIDER',
  );
}

/** `INVALID_REQUEST` naming the offending field, so a model can correct its call. */
export function invalidRequestError(
  field: string,
  problem: string,
  cause?: unknown,
): UserInteractionError {
  return new UserInteractionError(`Invalid question: \`${field}\` ${problem}.`, 'INVALID_REQUEST', {
    field,
    ...(cause !== undefined && { cause }),
  });
}

/** `ASK_ABORTED`: the caller withdrew the question; `reason` is its signal's. */
export function askAbortedError(reason: unknown): UserInteractionError {
  return new UserInteractionError(
    'The question was withdrawn before the person answered.',
    'ASK_ABORTED',
    { cause: reason },
  );
}

/** `ASK_TIMEOUT`: nobody answered within the time limit. */
export function askTimeoutError(timeoutMs: number): UserInteractionError {
  return new UserInteractionError(
    `The person did not answer within ${timeoutMs} ms.`,
    'ASK_TIMEOUT',
  );
}

/** `ASK_DECLINED`: the person chose not to answer (Esc, "decline"). */
export function askDeclinedError(cause?: unknown): UserInteractionError {
  return new UserInteractionError(
    'The person chose not to answer the question.',
    'ASK_DECLINED',
    cause === undefined ? {} : { cause },
  );
}

/** `ASK_CANCELLED`: the person dismissed the question (Ctrl+C, "cancel"). */
export function askCancelledError(cause?: unknown): UserInteractionError {
  return new UserInteractionError(
    'The person dismissed the question without answering.',
    'ASK_CANCELLED',
    cause === undefined ? {} : { cause },
  );
}

/** `INPUT_CLOSED`: nobody can answer any more; `why` says what went away ("the input ended"). */
export function inputClosedError(why: string, cause?: unknown): UserInteractionError {
  return new UserInteractionError(
    `Nobody can answer the question: ${why}.`,
    'INPUT_CLOSED',
    cause === undefined ? {} : { cause },
  );
}

/** `UNSUPPORTED`: the UI cannot show this question; `why` says what to ask instead. */
export function unsupportedError(why: string, cause?: unknown): UserInteractionError {
  return new UserInteractionError(
    `This UI cannot show the question: ${why}.`,
    'UNSUPPORTED',
    cause === undefined ? {} : { cause },
  );
}

/** `INVALID_ANSWER`: the UI returned an answer that does not fit the question. */
export function invalidAnswerError(problem: string): UserInteractionError {
  return new UserInteractionError(
    `The UI returned an answer that does not fit the question: ${problem}.`,
    'INVALID_ANSWER',
  );
}

/**
 * `ASK_FAILED`: anything else went wrong in the UI. `cause` keeps the original; `why`, when
 * given, is safe to show the model (the original's text may carry details it must not see).
 */
export function askFailedError(cause: unknown, why?: string): UserInteractionError {
  return new UserInteractionError(
    `The UI failed to ask the question${why === undefined ? '' : `: ${why}`}.`,
    'ASK_FAILED',
    { cause },
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
      if (hasErrorMarker(foreign, 'UserInteractionError')) {
        const code = foreign.code;
        const message = foreign.message;
        if (isUserInteractionErrorCode(code) && typeof message === 'string') {
          return new UserInteractionError(message, code, { cause: error });
        }
      }
    }
  } catch {
    // A hostile error: reported as a failure of the UI like any other.
  }
  return askFailedError(error);
}
