// A registered symbol, so that an error made by a second copy of this package is still recognised.
export const HARNESS_ERROR = Symbol.for('dsh.HarnessError');

/** The base of every error this project raises on purpose. Callers branch on `code`, never on the message. */
export class HarnessError extends Error {
  /** A stable, machine-readable code such as `ASK_TIMEOUT`. */
  readonly code: string;

  constructor(message: string, code: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = 'HarnessError';
  }

  static {
    Object.defineProperty(HarnessError.prototype, HARNESS_ERROR, { value: true });
  }
}

/** True for a `HarnessError` from this or any other copy of the package. */
export function isHarnessError(value: unknown): value is HarnessError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [HARNESS_ERROR]?: unknown })[HARNESS_ERROR] === true &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/** An error as a tool runner shows it to the model. */
export interface ToolError {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

/** The code given to any failure that is not a `HarnessError`. */
export const INTERNAL_ERROR_CODE = 'INTERNAL_ERROR';

/**
 * What the model sees of a failure: name, code and message of a `HarnessError`, and
 * for anything else a generic code and message (never a stack, never the original text,
 * which may carry paths, keys or other secrets).
 */
export function toToolError(error: unknown): ToolError {
  if (isHarnessError(error)) {
    return { name: error.name, code: error.code, message: error.message };
  }
  return {
    name: 'Error',
    code: INTERNAL_ERROR_CODE,
    message: 'The tool failed with an unexpected internal error.',
  };
}
