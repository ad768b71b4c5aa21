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

/** What `HarnessError.mark` registered for an error class: its errors' name and codes. */
interface ErrorClassRecord {
  readonly name: string;
  /** The codes its errors carry, when the class has a list of them. */
  readonly codes: readonly string[] | undefined;
}

const RECORDS = new WeakMap<object, ErrorClassRecord>();

/** The record of `errorClass`, or of the nearest class it extends that has one. */
function recordOf(errorClass: object): ErrorClassRecord | undefined {
  for (let current: object | null = errorClass; current !== null; ) {
    const record = RECORDS.get(current);
    if (record !== undefined) return record;
    current = Object.getPrototypeOf(current) as object | null;
  }
  return undefined;
}

/** A class of errors: `HarnessError` or one that extends it. */
type HarnessErrorClass = abstract new (...args: never[]) => HarnessError;

/**
 * The base of every error this project raises on purpose. Callers branch on `code`, never on the
 * message. Each class is written one way (as vercel/ai's `AISDKError` and its subclasses are): one
 * line after it, `HarnessError.define(Class, name, codes?)` (or `mark` in its static block), gives
 * its prototype its marker, `Symbol.for('dsh.error.<name>')`, and its errors their `name`;
 * `static isInstance(value)`, which every class has from this one, recognises its errors by that
 * marker (and code) from any copy of its package.
 */
export class HarnessError<Code extends string = string> extends Error {
  /** A stable, machine-readable code such as `ASK_TIMEOUT`. */
  readonly code: Code;

  constructor(message: string, code: Code, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = recordOf(new.target)?.name ?? 'HarnessError';
  }

  static {
    HarnessError.mark(HarnessError, 'HarnessError');
  }

  /**
   * Makes `errorClass` a class of its own: its prototype gets the marker of `name`
   * (`Symbol.for('dsh.error.<name>')`, not enumerable), its errors the `name`, and its
   * `isInstance` checks both, and that the code is one of `codes` when given. Call it once, in
   * the class's static block.
   */
  protected static mark(
    errorClass: HarnessErrorClass,
    name: string,
    codes?: readonly string[],
  ): void {
    Object.defineProperty(errorClass.prototype, markerOf(name), { value: true });
    RECORDS.set(errorClass, { name, codes });
  }

  /**
   * True for an error of this class (the class it is called on) from this or any other copy of
   * its package: it carries the class's marker and a code of the class. Call it on the class:
   * `AgentError.isInstance(value)`.
   */
  static isInstance<Class extends HarnessErrorClass>(
    this: Class,
    value: unknown,
  ): value is InstanceType<Class> {
    // `this` is the class it is called on (`AgentError.isInstance`): one method for every class.
    // biome-ignore lint/complexity/noThisInStatic: the class called on, not HarnessError.
    // biome-ignore lint/complexity/noUselessThisAlias: named once, for the checks below.
    const errorClass = this;
    if (typeof errorClass !== 'function') {
      throw new TypeError(
        'isInstance must be called on its class: `HarnessError.isInstance(value)`.',
      );
    }
    const record = recordOf(errorClass);
    if (record === undefined || !hasErrorMarker(value, 'HarnessError')) return false;
    if (!hasErrorMarker(value, record.name)) return false;
    const { code, message } = value as { code?: unknown; message?: unknown };
    return (
      typeof code === 'string' &&
      typeof message === 'string' &&
      (record.codes === undefined || record.codes.includes(code))
    );
  }

  /**
   * The guard of `errorClass`, `is<Name>(value, code?)`: its `isInstance`, and when `code` is
   * given, that the error carries that code. For a class marked in its static block; a class
   * made with `define` gets its guard from that call.
   */
  static guard<Class extends HarnessErrorClass>(
    errorClass: Class,
  ): HarnessErrorGuard<InstanceType<Class>> {
    const guard = (value: unknown, code?: string) =>
      HarnessError.isInstance.call(errorClass, value) &&
      (code === undefined || (value as HarnessError).code === code);
    // Named as the function it stands for (`isPluginError`), for stack traces and logs.
    const name = `is${recordOf(errorClass)?.name ?? 'HarnessError'}`;
    return Object.defineProperty(guard, 'name', { value: name }) as HarnessErrorGuard<
      InstanceType<Class>
    >;
  }

  /**
   * `mark` and `guard` in one call, written after the class, so that each error class is its
   * codes, the class and one line: `export const isPluginError = HarnessError.define(PluginError,
   * 'PluginError', PLUGIN_ERROR_CODES);`. Throws a `TypeError` for a class that is already
   * marked: a class's name and codes are set once, by its own module.
   */
  static define<Class extends HarnessErrorClass>(
    errorClass: Class,
    name: string,
    codes?: readonly InstanceType<Class>['code'][],
  ): HarnessErrorGuard<InstanceType<Class>> {
    if (RECORDS.has(errorClass)) {
      throw new TypeError(`HarnessError.define: ${name} is already marked; define it once.`);
    }
    HarnessError.mark(errorClass, name, codes);
    return HarnessError.guard(errorClass);
  }
}

/** True for an error of one class (optionally with `code`): what `HarnessError.guard` makes. */
export type HarnessErrorGuard<E extends HarnessError> = (
  value: unknown,
  code?: E['code'],
) => value is E;

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
