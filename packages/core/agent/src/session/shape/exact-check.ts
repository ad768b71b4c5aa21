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

/**
 * The exact check of an object of `fields`, made once per declaration. It is compiled into a
 * function of its own (the way Ajv compiles a JSON schema: https://ajv.js.org/guide/getting-started.html),
 * so that each field is read by name where it is declared: an engine reads a named field of
 * objects of one layout through a cache of that layout, where a loop over a field table reads
 * every object of every declaration through one lookup that misses. Only the declared keys
 * (constants of this package, each written as a JSON string) go into the code; the values read
 * are only ever passed to the field checks, never into code. `undefined` when a field's shape
 * has no exact check (such an object is always read field by field).
 */
export function compileObjectCheck(
  fields: readonly ObjectField[],
  check: ((value: never) => string | undefined) | undefined,
): ExactCheck | undefined {
  const tests: ExactCheck[] = [];
  const omits: ((value: unknown) => boolean)[] = [];
  const lines = ['if (!isObjectValue(value)) return false;', 'let count = 0;', 'let field;'];
  for (const [at, field] of fields.entries()) {
    lines.push(`field = value[${JSON.stringify(field.key)}];`);
    if (field.kind === FieldKind.Absent) {
      lines.push('if (field !== undefined) return false;');
      continue;
    }
    const test = field.text
      ? 'typeof field === "string"'
      : (() => {
          const exact = fieldCheck(field);
          if (exact === undefined) return undefined;
          tests[at] = exact;
          return `tests[${at}](field)`;
        })();
    if (test === undefined) return undefined;
    if (field.omit !== undefined) omits[at] = field.omit;
    const omit = field.omit === undefined ? '' : ` || omits[${at}](field)`;
    lines.push(
      field.kind === FieldKind.Required
        ? `if (field === undefined || !(${test})) return false; count++;`
        : `if (field !== undefined) { if (!(${test})${omit}) return false; count++; }`,
    );
  }
  // Every own key is a declared one: counted, as a key not declared would add one.
  lines.push('for (const key in value) count--;', 'if (count !== 0) return false;');
  lines.push(check === undefined ? 'return true;' : 'return check(value) === undefined;');
  const make = new Function(
    'isObjectValue',
    'tests',
    'omits',
    'check',
    `return function exactCheck(value) {\n${lines.join('\n')}\n};`,
  ) as (
    isObject: typeof isObjectValue,
    fieldTests: readonly ExactCheck[],
    fieldOmits: readonly ((value: unknown) => boolean)[],
    rule: typeof check,
  ) => ExactCheck;
  return make(isObjectValue, tests, omits, check);
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
