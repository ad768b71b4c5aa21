import { HarnessError } from 'dsh-user-interaction';

/** Every way a model can fail. Each is documented in the package README. */
export const MODEL_ERROR_CODES = [
  'MODEL_AUTH',
  'MODEL_RATE_LIMITED',
  'MODEL_UNAVAILABLE',
  'MODEL_NOT_FOUND',
  'MODEL_REQUEST_REJECTED',
  'MODEL_CONNECTION',
  'MODEL_TIMEOUT',
  'MODEL_BAD_RESPONSE',
  'MODEL_CLIENT_MISSING',
  'MODEL_OPTIONS_INVALID',
  'SCRIPT_INVALID',
] as const;

/** A stable code of a `ModelError`. */
export type ModelErrorCode = (typeof MODEL_ERROR_CODES)[number];

/** Options of a `ModelError`. */
export interface ModelErrorOptions extends ErrorOptions {
  /** The HTTP status the server answered with, when there was one. */
  readonly status?: number;
  /** For `SCRIPT_INVALID`: the offending field, such as `steps[2].toolCalls[0].name`. */
  readonly field?: string;
}

/** A model or script failure, with a stable `code` and a message that says what to do. */
export class ModelError extends HarnessError<ModelErrorCode> {
  /** The HTTP status the server answered with, when there was one. */
  declare readonly status?: number;
  /** For `SCRIPT_INVALID`: the offending field. */
  declare readonly field?: string;

  constructor(message: string, code: ModelErrorCode, options: ModelErrorOptions = {}) {
    super(message, code, options);
    if (options.status !== undefined) this.status = options.status;
    if (options.field !== undefined) this.field = options.field;
  }
}

/** True for a `ModelError` from this or any other copy of the package, optionally with the code. */
export const isModelError = HarnessError.define(ModelError, 'ModelError', MODEL_ERROR_CODES);
