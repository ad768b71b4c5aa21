import { compileObjectCheck, isObjectValue } from './exact-check.js';
import { FieldKind, type ObjectField, readCopied, readParsed } from './object-reader.js';
import {
  type AnyShape,
  fail,
  type KnownField,
  type ReadMode,
  type Shape,
  type ShapeType,
  text,
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

const NO_SHAPE: AnyShape = { read: () => fail('must be left out') };

function fieldOf(key: string, declared: FieldShape): ObjectField {
  const kind =
    'absent' in declared
      ? FieldKind.Absent
      : 'optional' in declared
        ? FieldKind.Optional
        : FieldKind.Required;
  const shape =
    'absent' in declared ? NO_SHAPE : 'optional' in declared ? declared.optional : declared;
  return {
    key,
    kind,
    shape,
    text: shape === text,
    test: shape.leaf?.test,
    expected: shape.leaf === undefined ? '' : `must be ${shape.leaf.expected}`,
    omit:
      'optional' in declared
        ? (declared.omit as ((value: unknown) => boolean) | undefined)
        : undefined,
    absent: 'absent' in declared ? declared.absent : '',
  };
}

/** Checks that a value is an object (not a list), or says it must be. */
export function asObject(value: unknown): Record<string, unknown> {
  if (!isObjectValue(value)) fail('must be an object');
  return value;
}

/**
 * An object of the declared fields, read in their order. Fields not declared are left out; a
 * copy keeps the declared order. `check`: a rule across fields, said as a whole sentence.
 */
export function object<const F extends Readonly<Record<string, FieldShape>>>(
  declared: F,
  check?: (value: ObjectType<F>) => string | undefined,
): Shape<ObjectType<F>> {
  const fields: readonly ObjectField[] = Object.entries(declared).map(([key, field]) =>
    fieldOf(key, field),
  );
  const required = fields.filter((field) => field.kind === FieldKind.Required).length;
  const read = (value: unknown, mode: ReadMode, known: KnownField | undefined): ObjectType<F> => {
    const source = asObject(value);
    const result = (
      mode === 'copy' ? readCopied(fields, source, known) : readParsed(fields, required, source)
    ) as ObjectType<F>;
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
  const exact = compileObjectCheck(fields, check);
  return exact === undefined ? { read, tagsOf } : { read, tagsOf, exact };
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
