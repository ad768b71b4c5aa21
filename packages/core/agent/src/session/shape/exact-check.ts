import { FieldKind, type ObjectField } from './object-reader.js';

/**
 * A test that a value fresh from `JSON.parse` is right as it is: every declared field of the
 * right shape, no field to leave out, no other field (`__proto__` included), every rule across
 * fields met. `true` only when reading it would keep it as it is with no problem; `false` says
 * nothing more: the reader then reads it field by field, to copy it or to say what is wrong.
 * Loading a session runs this once per line, so it must cost less than the line's parse.
 */
export type ExactCheck = (value: unknown) => boolean;

/** A value that is a JSON object (not a list, not `null`). */
export function isObjectValue(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The exact check of a declared field's shape, or `undefined` when it has none. */
function fieldCheck(field: ObjectField): ExactCheck | undefined {
  return field.test ?? field.shape.exact;
}

/** How the exact check tests one declared field's value: the commonest tests take no call. */
const TEXT = 0;
/** One of a few literals (a variant's tag): compared in place. */
const LITERAL = 1;
/** The field's own test, called. */
const CALL = 2;
/** Declared absent: any value fails. */
const ABSENT = 3;

/**
 * The exact check of an object of `fields`, made once per declaration. One walk of the object's
 * own keys: each is found among the declared ones (expected next, in declared order, as dsh
 * writes them) and its value tested there. A key not declared fails (`__proto__` included, which
 * `JSON.parse` makes an own key), and so does a required one not found. A value read by the key
 * `for...in` gives is loaded from where the walk stands (V8 loads it by the index the walk
 * holds), where a lookup by a declared name searches each object's keys: one walk replaces a
 * lookup of each declared field and a count of the keys after it. No code is generated from the
 * table, so the package loads where code generation from strings is disallowed
 * (`--disallow-code-generation-from-strings`). `undefined` when a field's shape has no exact
 * check (such an object is always read field by field).
 */
export function compileObjectCheck(
  fields: readonly ObjectField[],
  check: ((value: never) => string | undefined) | undefined,
): ExactCheck | undefined {
  const keys: string[] = [];
  const kinds: number[] = [];
  const tests: (ExactCheck | readonly unknown[] | undefined)[] = [];
  const omits: (((value: unknown) => boolean) | undefined)[] = [];
  const required: boolean[] = [];
  let requiredCount = 0;
  for (const field of fields) {
    const absent = field.kind === FieldKind.Absent;
    const tags = field.shape.tags;
    const test = absent || field.text ? undefined : fieldCheck(field);
    if (!absent && !field.text && test === undefined) return undefined;
    keys.push(field.key);
    kinds.push(absent ? ABSENT : field.text ? TEXT : tags !== undefined ? LITERAL : CALL);
    tests.push(tags ?? test);
    omits.push(field.kind === FieldKind.Optional ? field.omit : undefined);
    required.push(field.kind === FieldKind.Required);
    if (field.kind === FieldKind.Required) requiredCount++;
  }
  const count = keys.length;
  return (value) => {
    if (!isObjectValue(value)) return false;
    let found = 0;
    let next = 0;
    for (const key in value) {
      const at = next < count && keys[next] === key ? next : keys.indexOf(key);
      if (at === -1) return false;
      next = at + 1;
      const field = value[key];
      const kind = kinds[at];
      if (kind === TEXT) {
        if (typeof field !== 'string') return false;
      } else if (kind === LITERAL) {
        const tags = tests[at] as readonly unknown[];
        let tag = 0;
        while (tag < tags.length && tags[tag] !== field) tag++;
        if (tag === tags.length) return false;
      } else if (kind === ABSENT || !(tests[at] as ExactCheck)(field)) return false;
      const omit = omits[at];
      if (omit?.(field)) return false;
      if (required[at] === true) found++;
    }
    return found === requiredCount && (check === undefined || check(value as never) === undefined);
  };
}

/** The exact check of a list of items each passing `item`. */
export function listCheck(item: ExactCheck): ExactCheck {
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (let at = 0; at < value.length; at++) if (!item(value[at])) return false;
    return true;
  };
}

/** The exact check of a union: the variant its `key` field names passes its own check. */
export function unionCheck(
  key: string,
  tags: readonly unknown[],
  checks: readonly (ExactCheck | undefined)[],
): ExactCheck | undefined {
  if (checks.some((check) => check === undefined)) return undefined;
  return (value) => {
    if (!isObjectValue(value)) return false;
    // Searched in place: a few tags are found faster so than by `indexOf`, a call.
    const tag = value[key];
    let at = 0;
    while (at < tags.length && tags[at] !== tag) at++;
    return at < tags.length && (checks[at] as ExactCheck)(value);
  };
}
