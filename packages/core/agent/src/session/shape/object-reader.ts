import { type AnyShape, fail, type KnownField, type ReadMode, trail } from './shape.js';

/** How an object's field is declared, as the readers below use it. */
export enum FieldKind {
  Required = 0,
  Optional = 1,
  Absent = 2,
}

/** One declared field of an object, ready to read. */
export interface ObjectField {
  readonly key: string;
  readonly kind: (typeof FieldKind)[keyof typeof FieldKind];
  readonly shape: AnyShape;
  /** Whether it is any string: the commonest field, tested here without a call. */
  readonly text: boolean;
  /** The leaf test, inlined for the common fields (a string, a number): no call per field. */
  readonly test: ((value: unknown) => boolean) | undefined;
  /** What a value that fails `test` is told. */
  readonly expected: string;
  /** A value that means nothing, left out. */
  readonly omit: ((value: unknown) => boolean) | undefined;
  /** For a field that must be left out: what a value there is told. */
  readonly absent: string;
}

/** The value of one field as read: `undefined` when it is absent or left out. */
function readField(field: ObjectField, raw: unknown, mode: ReadMode): unknown {
  if (raw === undefined) {
    if (field.kind === FieldKind.Required) {
      trail.push(field.key);
      field.shape.read(undefined, mode, undefined);
    }
    return undefined;
  }
  if (field.kind === FieldKind.Absent) fail(field.absent, true);
  let read: unknown = raw;
  if (field.text) {
    if (typeof raw !== 'string') {
      trail.push(field.key);
      fail(field.expected);
    }
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
  return field.omit?.(read) ? undefined : read;
}

function knownValue(known: KnownField | undefined, key: string): unknown {
  for (let field = known; field !== undefined; field = field.outer) {
    if (field.key === key) return field.value;
  }
  return undefined;
}

/**
 * A caller's value (getters, a Proxy): each declared field read once, in order, into a fresh
 * frozen object; `known` holds the fields a union read already.
 */
export function readCopied(
  fields: readonly ObjectField[],
  source: Record<string, unknown>,
  known: KnownField | undefined,
): object {
  const copy: Record<string, unknown> = {};
  for (const field of fields) {
    const raw =
      known === undefined ? source[field.key] : (knownValue(known, field.key) ?? source[field.key]);
    const read = readField(field, raw, 'copy');
    if (read !== undefined) copy[field.key] = read;
  }
  return Object.freeze(copy);
}

/** Marks a field whose value read is the one in the source. */
const SAME: unique symbol = Symbol('same');

function indexOfKey(fields: readonly ObjectField[], key: string): number {
  for (let at = 0; at < fields.length; at++) if ((fields[at] as ObjectField).key === key) return at;
  return -1;
}

/**
 * A value fresh from `JSON.parse` that nobody else holds: its own fields walked once (a walk of
 * a plain object costs less than looking each declared field up), checked where they lie, and
 * the object itself returned when it holds the declared fields as they are and nothing else.
 * Otherwise a frozen copy of what was read.
 */
export function readParsed(
  fields: readonly ObjectField[],
  required: number,
  source: Record<string, unknown>,
): object {
  let changed: unknown[] | undefined;
  let exact = true;
  let found = 0;
  let next = 0;
  for (const key in source) {
    const at =
      next < fields.length && (fields[next] as ObjectField).key === key
        ? next
        : indexOfKey(fields, key);
    if (at === -1) {
      exact = false;
      continue;
    }
    next = at + 1;
    const field = fields[at] as ObjectField;
    if (field.kind === FieldKind.Required) found++;
    const raw = source[key];
    const read = readField(field, raw, 'keep');
    if (read !== raw) {
      changed ??= new Array<unknown>(fields.length).fill(SAME);
      changed[at] = read;
    }
  }
  if (found !== required) {
    // Says which is missing, first in declared order.
    for (const field of fields)
      if (!Object.hasOwn(source, field.key)) readField(field, undefined, 'keep');
  }
  // Plain parsed data that nobody else holds: not frozen (that costs as much as a copy).
  if (changed === undefined && exact) return source;
  const copy: Record<string, unknown> = {};
  for (let at = 0; at < fields.length; at++) {
    const field = fields[at] as ObjectField;
    const read = changed === undefined || changed[at] === SAME ? source[field.key] : changed[at];
    if (read !== undefined) copy[field.key] = read;
  }
  return Object.freeze(copy);
}
