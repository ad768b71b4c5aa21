import {
  type AnyShape,
  fail,
  type KnownField,
  type ReadMode,
  type Shape,
  type ShapeType,
  trail,
} from './shape.js';

/** A field that may be left out; `omit`: a value that means nothing, left out when read. */
export interface OptionalField<T> {
  readonly optional: Shape<T>;
  readonly omit?: (value: T) => boolean;
}

/** A field that must be left out, and what a value there is told (a whole sentence). */
export interface AbsentField {
  readonly absent: string;
}

/** What an object's field is declared as. */
export type FieldShape =
  | AnyShape
  | { readonly optional: AnyShape; readonly omit?: (value: never) => boolean }
  | AbsentField;

/** A field that may be left out (`omit`: a value left out as if it were, such as `false`). */
export function optional<T>(shape: Shape<T>, omit?: (value: T) => boolean): OptionalField<T> {
  return omit === undefined ? { optional: shape } : { optional: shape, omit };
}

/** A field that must not be there, with what a value there is told. */
export function absent(problem: string): AbsentField {
  return { absent: problem };
}

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The type an object of `F` reads: every field readonly, an optional one with `?`. */
export type ObjectType<F> = Flat<
  {
    readonly [K in keyof F as F[K] extends AnyShape ? K : never]: ShapeType<F[K]>;
  } & {
    readonly [K in keyof F as F[K] extends { readonly optional: AnyShape }
      ? K
      : never]?: F[K] extends {
      readonly optional: Shape<infer T>;
    }
      ? T
      : never;
  }
>;

/** What `objectOf<T>()` takes: a field for every key of `T`, and no other. */
export type FieldsOf<T> = {
  readonly [K in keyof T]-?: undefined extends T[K]
    ? OptionalField<Exclude<T[K], undefined>> | AbsentField
    : Shape<T[K]>;
};

enum Kind {
  Required = 0,
  Optional = 1,
  Absent = 2,
}

interface Field {
  readonly key: string;
  readonly kind: Kind;
  readonly shape: AnyShape;
  /** The leaf test, inlined for the common fields (a string, a number): no call per field. */
  readonly test: ((value: unknown) => boolean) | undefined;
  readonly expected: string;
  readonly omit: ((value: unknown) => boolean) | undefined;
  readonly absent: string;
}

const NO_SHAPE: AnyShape = { read: () => fail('must be left out') };

function fieldOf(key: string, declared: FieldShape): Field {
  const kind =
    'absent' in declared ? Kind.Absent : 'optional' in declared ? Kind.Optional : Kind.Required;
  const shape =
    'absent' in declared ? NO_SHAPE : 'optional' in declared ? declared.optional : declared;
  return {
    key,
    kind,
    shape,
    test: shape.leaf?.test,
    expected: shape.leaf === undefined ? '' : `must be ${shape.leaf.expected}`,
    omit:
      'optional' in declared
        ? (declared.omit as ((value: unknown) => boolean) | undefined)
        : undefined,
    absent: 'absent' in declared ? declared.absent : '',
  };
}

function knownValue(known: KnownField | undefined, key: string): unknown {
  for (let field = known; field !== undefined; field = field.outer) {
    if (field.key === key) return field.value;
  }
  return undefined;
}

/** Whether a parsed object has `count` fields and no others: it is then kept as it is. */
function exactly(fields: object, count: number): boolean {
  let seen = 0;
  for (const _ in fields) if (++seen > count) return false;
  return seen === count;
}

/** Checks that a value is an object (not a list), or says it must be. */
export function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail('must be an object');
  }
  return value as Record<string, unknown>;
}

/**
 * An object of the declared fields, read in their order. Fields not declared are left out; a
 * copy keeps the declared order. `check`: a rule across fields, said as a whole sentence.
 */
export function object<const F extends Readonly<Record<string, FieldShape>>>(
  declared: F,
  check?: (value: ObjectType<F>) => string | undefined,
): Shape<ObjectType<F>> {
  const fields: readonly Field[] = Object.entries(declared).map(([key, field]) =>
    fieldOf(key, field),
  );
  const read = (value: unknown, mode: ReadMode, known: KnownField | undefined): ObjectType<F> => {
    const source = asObject(value);
    // The values read, once the object cannot be kept as it is (always, when copying).
    let values: unknown[] | undefined = mode === 'copy' ? [] : undefined;
    let count = 0;
    for (let at = 0; at < fields.length; at++) {
      const field = fields[at] as Field;
      const raw =
        known === undefined
          ? source[field.key]
          : (knownValue(known, field.key) ?? source[field.key]);
      let read = raw;
      if (raw === undefined) {
        if (field.kind === Kind.Required) {
          trail.push(field.key);
          field.shape.read(undefined, mode, undefined);
        }
      } else if (field.kind === Kind.Absent) {
        fail(field.absent, true);
      } else if (field.test !== undefined) {
        if (!field.test(raw)) {
          trail.push(field.key);
          fail(field.expected);
        }
      } else {
        trail.push(field.key);
        read = field.shape.read(raw, mode, undefined);
        trail.pop();
      }
      if (read !== undefined && field.omit?.(read) === true) read = undefined;
      if (read !== undefined) count++;
      if (values === undefined && read !== raw) {
        values = [];
        for (let before = 0; before < at; before++) {
          values.push(source[(fields[before] as Field).key]);
        }
      }
      values?.push(read);
    }
    let result: ObjectType<F>;
    if (values === undefined && exactly(source, count)) {
      // Plain parsed data that nobody else holds: not frozen (that costs as much as a copy).
      result = source as ObjectType<F>;
    } else {
      const copy: Record<string, unknown> = {};
      for (let at = 0; at < fields.length; at++) {
        const field = fields[at] as Field;
        const kept = values === undefined ? source[field.key] : values[at];
        if (kept !== undefined) copy[field.key] = kept;
      }
      result = Object.freeze(copy) as ObjectType<F>;
    }
    if (check !== undefined) {
      const problem = check(result);
      if (problem !== undefined) fail(problem, true);
    }
    return result;
  };
  const tagsOf = (key: string): readonly unknown[] => {
    const field = fields.find((candidate) => candidate.key === key);
    return field?.shape.tags ?? [];
  };
  return { read, tagsOf };
}

/**
 * `object` for a type declared elsewhere (the contract's): every field of `T` must be declared,
 * each of a shape of its type, and no other (a field added to `T` alone does not compile).
 */
export function objectOf<T>() {
  return <const F extends FieldsOf<T>>(
    declared: F & Readonly<Record<Exclude<keyof F, keyof T>, never>>,
    check?: (value: T) => string | undefined,
  ): Shape<T> =>
    object(declared as Readonly<Record<string, FieldShape>>, check as never) as unknown as Shape<T>;
}
