/**
 * The marker of the error class named `name`: a registered symbol, so that an error made by a
 * second copy of its package (another version, a bundled copy) is still recognised.
 */
function markerOf(name: string): symbol {
  return Symbol.for(`dsh.error.${name}`);
}

/**
 * True when `value` carries the marker of the error class named `name`. Reads one property of
 * `value` (a getter or a Proxy trap of a hostile value may throw).
 */
export function hasErrorMarker(value: unknown, name: string): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[markerOf(name)] === true
  );
}

/**
 * The base of every error this project raises on purpose. Callers branch on `code`, never on the
 * message. Each class is written one way (as vercel/ai's `AISDKError` and its subclasses are):
 * it sets its `name` in its constructor, gives its prototype its marker in a static block
 * (`HarnessError.mark(this, name)`: `Symbol.for('dsh.error.<name>')`), and recognises its errors
 * from any copy of its package with `static isInstance(value)`, which checks that marker.
 */
export class HarnessError extends Error {
  /** A stable, machine-readable code such as `ASK_TIMEOUT`. */
  readonly code: string;

  constructor(message: string, code: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = 'HarnessError';
  }

  static {
    HarnessError.mark(HarnessError, 'HarnessError');
  }

  /**
   * Gives `errorClass` the marker of `name` (`Symbol.for('dsh.error.<name>')`), on its prototype
   * and not enumerable: call it once, in the class's static block, with the name its errors carry.
   */
  protected static mark(
    errorClass: abstract new (...args: never[]) => HarnessError,
    name: string,
  ): void {
    Object.defineProperty(errorClass.prototype, markerOf(name), { value: true });
  }

  /** True when `value` carries the marker of the error class named `name`. */
  protected static hasMarker(value: unknown, name: string): boolean {
    return hasErrorMarker(value, name);
  }

  /** True for a `HarnessError` from this or any other copy of the package. */
  static isInstance(value: unknown): value is HarnessError {
    return (
      HarnessError.hasMarker(value, 'HarnessError') &&
      typeof (value as { code?: unknown }).code === 'string' &&
      typeof (value as { message?: unknown }).message === 'string'
    );
  }
}

/** True for a `HarnessError` from this or any other copy of the package. */
export function isHarnessError(value: unknown): value is HarnessError {
  return HarnessError.isInstance(value);
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
