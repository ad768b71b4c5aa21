import { invalidRequestError } from '../errors/ask-errors.js';
import type { UserInteractionError } from '../errors/user-interaction-error.js';
import { hasLoneSurrogate, isBlankText } from './is-blank-text.js';

/** A field whose getter or Proxy trap threw: the request cannot be trusted. */
export function unreadableField(field: string, error: unknown): UserInteractionError {
  return invalidRequestError(field, 'could not be read (a getter or Proxy trap threw)', error);
}

/** A key as a field name: plain when it is an identifier, quoted otherwise (even an empty key shows). */
export function fieldName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** The first key (own or inherited, enumerable) that is not allowed; reads no value. */
export function unknownKey(value: object, allowed: ReadonlySet<string>): string | undefined {
  for (const key in value) if (!allowed.has(key)) return key;
  return undefined;
}

/** What is wrong with a text field, or `undefined`. Field names are built only on failure. */
export function textProblem(
  value: unknown,
  maxLength: number,
  required: boolean,
): string | undefined {
  if (value === undefined) return required ? 'is required' : undefined;
  if (typeof value !== 'string') return `must be a string, not ${typeOf(value)}`;
  if (isBlankText(value)) return 'must not be blank';
  if (value.length > maxLength) {
    return `must be at most ${maxLength} characters (it has ${value.length})`;
  }
  if (hasLoneSurrogate(value)) return 'must be well-formed text (it has a lone surrogate)';
  return undefined;
}

export function checkText(
  value: unknown,
  field: string,
  maxLength: number,
  required: boolean,
): void {
  const problem = textProblem(value, maxLength, required);
  if (problem !== undefined) throw invalidRequestError(field, problem);
}

/** `Array.isArray`, except that a revoked Proxy is not an array instead of a throw. */
export function isArray(value: unknown): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
