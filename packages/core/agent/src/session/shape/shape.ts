/**
 * How a value is read. A caller's value may be anything (getters, a Proxy) and is copied: each
 * field read once, into a fresh frozen object. A value fresh from `JSON.parse` is plain data
 * that nobody else holds: it is checked where it lies and kept as it is, unless a field must be
 * left out (one the shape does not know, or one that means nothing, such as an empty list).
 */
export type ReadMode = 'copy' | 'keep';

/** A field already read by a union to choose its variant: the variant does not read it again. */
export interface KnownField {
  readonly key: string;
  readonly value: unknown;
  readonly outer: KnownField | undefined;
}

/** A shape of any type: what a declaration may hold (`Shape<T>` is exact in its type). */
export interface AnyShape {
  /** Reads `value`, or throws a `ShapeProblem` with `trail` left where it is wrong. */
  readonly read: (value: unknown, mode: ReadMode, known: KnownField | undefined) => unknown;
  /** For a leaf: a test on the value, and what a value that fails it must be ("a string"). */
  readonly leaf?: { readonly test: (value: unknown) => boolean; readonly expected: string };
  /** The values a field of this shape may hold, when they are a few literals (a union's tags). */
  readonly tags?: readonly unknown[];
  /** For an object or a union: the tags its `key` field may hold, over every variant. */
  readonly tagsOf?: (key: string) => readonly unknown[];
  /**
   * Whether a value fresh from `JSON.parse` is right as it is, to be kept with no field read
   * again (see `exact-check.ts`); `false` says nothing more. Absent: always read field by field.
   */
  readonly exact?: (value: unknown) => boolean;
}

/**
 * One declared data shape: how a value of type `T` is read and checked. The type is derived
 * from the declaration (`ShapeType`), never written beside it.
 */
export interface Shape<T> extends AnyShape {
  readonly read: (value: unknown, mode: ReadMode, known: KnownField | undefined) => T;
  /** Never set: makes `Shape<A>` and `Shape<B>` assignable only when `A` and `B` are. */
  readonly _exact?: (value: T) => T;
}

/** The type a shape reads. */
export type ShapeType<S> = S extends Shape<infer T> ? T : never;

/** A union's mark on the trail: which variant is being read (for naming a top-level field). */
export class VariantMark {
  constructor(readonly tag: string) {}
}

/**
 * Where the value being read is: keys and list indices from the root, and variant marks. Pushed
 * and popped as a reader goes down; left as it is when a problem is thrown, and cut back to
 * where it started by `readShape` (a getter may start another read inside one).
 */
export const trail: (string | number | VariantMark)[] = [];

/** What is wrong; `whole`: the text is a sentence of its own, not said of the place. */
export class ShapeProblem {
  constructor(
    readonly text: string,
    readonly whole = false,
  ) {}
}

/** Throws what is wrong with the value where `trail` is. */
export function fail(text: string, whole = false): never {
  throw new ShapeProblem(text, whole);
}

/** A value that `test` accepts, which is then kept as it is. */
export function leaf<T>(expected: string, test: (value: unknown) => boolean): Shape<T> {
  return {
    read: (value) => (test(value) ? (value as T) : fail(`must be ${expected}`)),
    leaf: { test, expected },
    exact: test,
  };
}

/** Any string. */
export const text: Shape<string> = leaf('a string', (value) => typeof value === 'string');

/** A string with at least one character. */
export const nonEmptyText: Shape<string> = leaf(
  'a string that is not empty',
  (value) => typeof value === 'string' && value !== '',
);

/** `true` or `false`. */
export const boolean: Shape<boolean> = leaf('true or false', (value) => typeof value === 'boolean');

/** A whole number (a safe integer) from `minimum`, if given. */
export function wholeNumber(minimum = Number.MIN_SAFE_INTEGER): Shape<number> {
  return leaf(
    'a whole number',
    (value) => Number.isSafeInteger(value) && (value as number) >= minimum,
  );
}

/** `null`, or what `shape` (a leaf) reads. */
export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  const inner = shape.leaf;
  if (inner === undefined) throw new TypeError('nullable() takes a leaf shape');
  return leaf(`${inner.expected} or null`, (value) => value === null || inner.test(value));
}

/** One of a few strings (or other literals), as the list gives them. */
export function oneOf<const T extends string | boolean>(values: readonly T[]): Shape<T> {
  const allowed: readonly unknown[] = values;
  return {
    ...leaf<T>(`one of ${values.join(', ')}`, (value) => allowed.includes(value)),
    tags: values,
  };
}

/** Exactly `value`: a variant's tag. */
export function literal<const T extends string | boolean>(value: T): Shape<T> {
  return oneOf([value]);
}

/** A value a predicate recognises, told as `expected` when it does not ("a user interaction code"). */
export function recognised<T>(expected: string, test: (value: unknown) => value is T): Shape<T> {
  return leaf(expected, test);
}

/** The place a trail names: `outcome.decidedBy.kind`, `toolCalls[0].id`. */
function placeOf(path: readonly (string | number | VariantMark)[], root: string): string {
  let place = '';
  let variant: string | undefined;
  let keys = 0;
  for (const step of path) {
    if (step instanceof VariantMark) variant ??= step.tag;
    else if (typeof step === 'number') place += `[${step}]`;
    else {
      place += place === '' ? step : `.${step}`;
      keys++;
    }
  }
  // A field of the root itself is named after its variant: `prompt.text`.
  if (place === '') return root;
  return keys === 1 && variant !== undefined && !place.includes('[')
    ? `${variant}.${place}`
    : place;
}

/**
 * Reads `value` as `shape`: what `wrap` makes of the value read, or what is wrong with it and
 * where (`root` names the value itself). Only a `ShapeProblem` becomes a problem: anything
 * else a getter throws goes on.
 */
export function readShape<T, R>(
  shape: Shape<T>,
  value: unknown,
  mode: ReadMode,
  root: string,
  wrap: (value: T) => R,
): R | { readonly problem: string } {
  // Parsed data that is right as it is (the common case: a line dsh wrote) is checked once
  // and kept; anything else is read field by field, to copy it or to say what is wrong.
  if (mode === 'keep' && shape.exact?.(value) === true) return wrap(value as T);
  const start = trail.length;
  try {
    return wrap(shape.read(value, mode, undefined));
  } catch (error) {
    if (!(error instanceof ShapeProblem)) throw error;
    if (error.whole) return { problem: error.text };
    return { problem: `${placeOf(trail.slice(start), root)} ${error.text}` };
  } finally {
    // Cut back only after a problem: setting a list's length is a call into the engine.
    if (trail.length !== start) trail.length = start;
  }
}
