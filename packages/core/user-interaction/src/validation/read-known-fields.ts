import { invalidRequestError } from '../errors/ask-errors.js';
import { isArray, typeOf, unknownKey, unreadableField } from './request-field-checks.js';

/**
 * Reads the length of a list once and checks it is a whole number, or throws `INVALID_REQUEST`
 * naming `field` (not an array, a throwing getter, or a Proxy's odd length).
 */
export function readLength(value: unknown, field: string): number {
  if (!isArray(value)) throw invalidRequestError(field, `must be an array, not ${typeOf(value)}`);
  let length: unknown;
  try {
    length = value.length;
  } catch (error) {
    throw unreadableField(field, error);
  }
  // Only a Proxy can have a length that is not a whole number.
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    throw invalidRequestError(field, 'must be an array');
  }
  return length;
}

/** Reads entry `index` of a list once; a throwing getter is `INVALID_REQUEST` naming `field`. */
export function readEntry(list: unknown, index: number, field: string): unknown {
  try {
    return (list as unknown[])[index];
  } catch (error) {
    throw unreadableField(field, error);
  }
}

/**
 * Reads `names` of an object once each and returns them, or throws `INVALID_REQUEST`: for a
 * throwing getter or Proxy trap, then for a key not in `allowed` (not a field of `noun`).
 * `fieldAt(key)` names a field of the object in the error (the object itself without a key).
 */
export function readKnownFields(
  value: object,
  names: readonly string[],
  allowed: ReadonlySet<string>,
  noun: string,
  fieldAt: (key?: string) => string,
): Record<string, unknown> {
  const read: Record<string, unknown> = {};
  let reading: string | undefined;
  let unknown: string | undefined;
  try {
    const source = value as Record<string, unknown>;
    unknown = unknownKey(source, allowed);
    for (const name of names) {
      reading = name;
      read[name] = source[name];
    }
  } catch (error) {
    throw unreadableField(fieldAt(reading), error);
  }
  if (unknown !== undefined)
    throw invalidRequestError(fieldAt(unknown), `is not a field of ${noun}`);
  return read;
}
