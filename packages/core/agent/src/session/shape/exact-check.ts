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

/** One declared field as the exact check reads it. */
interface FieldStep {
  readonly key: string;
  readonly required: boolean;
  /** Declared absent: any value fails. */
  readonly absent: boolean;
  /** The value's test; `undefined` for a field that is any string (tested without a call). */
  readonly test: ExactCheck | undefined;
  /** For an optional field: a value that reading would leave out fails the exact check. */
  readonly omit: ((value: unknown) => boolean) | undefined;
}

/**
 * The exact check of an object of `fields`, made once per declaration: each declared field read
 * by name and tested, then every own key counted, so that a key not declared (`__proto__`
 * included, which `JSON.parse` makes an own key) fails. No code is generated from the table, so
 * the package loads where code generation from strings is disallowed
 * (`--disallow-code-generation-from-strings`). `undefined` when a field's shape has no exact check
 * (such an object is always read field by field).
 */
export function compileObjectCheck(
  fields: readonly ObjectField[],
  check: ((value: never) => string | undefined) | undefined,
): ExactCheck | undefined {
  const steps: FieldStep[] = [];
  for (const field of fields) {
    const absent = field.kind === FieldKind.Absent;
    const test = absent || field.text ? undefined : fieldCheck(field);
    if (!absent && !field.text && test === undefined) return undefined;
    const required = field.kind === FieldKind.Required;
    steps.push({ key: field.key, required, absent, test, omit: required ? undefined : field.omit });
  }
  return (value) => {
    if (!isObjectValue(value)) return false;
    let count = 0;
    for (const step of steps) {
      const field = value[step.key];
      if (field === undefined) {
        if (step.required) return false;
        continue;
      }
      if (step.absent) return false;
      if (step.test === undefined ? typeof field !== 'string' : !step.test(field)) return false;
      if (step.omit?.(field)) return false;
      count++;
    }
    // Every own key is a declared one: counted, as a key not declared would add one.
    for (const _key in value) count--;
    return count === 0 && (check === undefined || check(value as never) === undefined);
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
    const at = tags.indexOf(value[key]);
    return at !== -1 && (checks[at] as ExactCheck)(value);
  };
}
