/**
 * The requests this package checked and froze (`validateRequest`, `validateQuestionsRequest`
 * and the service's own checks): frozen, their fields data read once and checked, their lists
 * and options frozen too, so none can change. The service takes one of them as it is instead of
 * reading and checking it again: the tool's parsed arguments with the caller's fields, handed on
 * to `ask`. WeakSets of this module: a caller cannot add an object of its own, and a second
 * copy of the package checks everything again. One set per kind: a request checked as one
 * question is not checked as several (it has no `questions`), nor the other way round.
 */
const checked = {
  question: new WeakSet<object>(),
  questions: new WeakSet<object>(),
} as const;

/** What a request was checked as: one question (`ask`) or several (`askAll`). */
export type CheckedKind = keyof typeof checked;

/** Records `request` (frozen, as checked as `kind`) and returns it. */
export function markChecked<T extends object>(kind: CheckedKind, request: T): T {
  checked[kind].add(request);
  return request;
}

/** `value` when this package checked and froze it as `kind`, else `undefined`. */
export function checkedRequest<T extends object>(kind: CheckedKind, value: unknown): T | undefined {
  return typeof value === 'object' && value !== null && checked[kind].has(value)
    ? (value as T)
    : undefined;
}
