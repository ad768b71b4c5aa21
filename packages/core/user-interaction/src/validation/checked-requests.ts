/**
 * The requests this package checked and froze (`validateRequest`, `validateQuestionsRequest`
 * and the service's own checks): frozen, their fields data read once and checked, their lists
 * and options frozen too, so none can change. The service takes one of them as it is instead of
 * reading and checking it again: the tool's parsed arguments with the caller's fields, handed on
 * to `ask`. A WeakSet of this module: a caller cannot add an object of its own, and a second
 * copy of the package checks everything again.
 */
const checked = new WeakSet<object>();

/** Records `request` (frozen, as checked) and returns it. */
export function markChecked<T extends object>(request: T): T {
  checked.add(request);
  return request;
}

/** `value` when this package checked and froze it, else `undefined`. */
export function checkedRequest<T extends object>(value: unknown): T | undefined {
  return typeof value === 'object' && value !== null && checked.has(value)
    ? (value as T)
    : undefined;
}
