import { HarnessError, isHarnessError } from 'dsh-user-interaction';

/** A `HarnessError` whose `code` is one of a known list; each subclass sets its own `name`. */
export abstract class CodedError<Code extends string> extends HarnessError {
  declare readonly code: Code;

  constructor(message: string, code: Code, options?: ErrorOptions) {
    super(message, code, options);
  }
}

/**
 * True for an error named `name` with one of `codes` (optionally exactly `code`), from this or
 * any other copy of the package: checked by name and code, never by class.
 */
export function isCodedError<Code extends string>(
  value: unknown,
  name: string,
  codes: readonly Code[],
  code: Code | undefined,
): boolean {
  return (
    isHarnessError(value) &&
    value.name === name &&
    (codes as readonly string[]).includes(value.code) &&
    (code === undefined || value.code === code)
  );
}
