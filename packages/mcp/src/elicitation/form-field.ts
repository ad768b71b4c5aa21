/** A choice a field offers: the value sent to the server, and what the person reads. */
export interface FieldChoice {
  readonly value: string;
  readonly label: string;
}

interface FieldBase {
  /** The property name in `requestedSchema`, as the server wrote it. */
  readonly name: string;
  /** What the person reads: the field's `title`, else its name. */
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  /** A password, token, key or the like, judged from its name and title: never echoed or logged. */
  readonly sensitive: boolean;
}

/** One field of an MCP form (a flat `requestedSchema` property), read once and checked. */
export type FormField =
  | (FieldBase & {
      readonly kind: 'text';
      readonly format?: 'email' | 'uri' | 'date' | 'date-time';
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly default?: string;
    })
  | (FieldBase & {
      readonly kind: 'number';
      readonly integer: boolean;
      readonly minimum?: number;
      readonly maximum?: number;
      readonly default?: number;
    })
  | (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean })
  | (FieldBase & {
      readonly kind: 'choice';
      readonly choices: readonly FieldChoice[];
      readonly default?: string;
    })
  | (FieldBase & {
      readonly kind: 'choices';
      readonly choices: readonly FieldChoice[];
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly default?: readonly string[];
    });

/** A value of a form's `content`, as MCP allows it. */
export type FieldValue = string | number | boolean | readonly string[];

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

// Names and titles of fields whose value a person would not want on screen or in a log. The
// spec tells servers never to ask for secrets in form mode; a client still must not echo them.
const SENSITIVE =
  /pass(word|phrase|code)?|secret|token|api[\s_-]?key|private[\s_-]?key|credential|\bpin\b|otp|\bcvv\b|\bcvc\b|ssn/i;

/** Whether a field's name or title reads as a secret (a password, token, API key, PIN...). */
export function isSensitiveName(...names: readonly (string | undefined)[]): boolean {
  return names.some((name) => name !== undefined && SENSITIVE.test(name));
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function strings(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? [...value]
    : undefined;
}

function choicesOf(property: Record<string, unknown>): readonly FieldChoice[] | undefined {
  const values = strings(property.enum);
  if (values !== undefined) {
    const names = strings(property.enumNames);
    return values.map((value, index) => ({ value, label: text(names?.[index]) ?? value }));
  }
  const titled = property.oneOf ?? property.anyOf;
  if (!Array.isArray(titled)) return undefined;
  const choices: FieldChoice[] = [];
  for (const entry of titled) {
    const option = record(entry);
    if (option === undefined || typeof option.const !== 'string') return undefined;
    choices.push({ value: option.const, label: text(option.title) ?? option.const });
  }
  return choices;
}

/** `T` with its entries that may be `undefined` made optional instead. */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Keeps only the entries that have a value (`exactOptionalPropertyTypes`). */
function defined<T extends object>(entries: T): Defined<T> {
  return Object.fromEntries(
    Object.entries(entries).filter(([, value]) => value !== undefined),
  ) as Defined<T>;
}

/** Reads one property; a string says why it cannot be asked. */
function readField(name: string, raw: unknown, required: boolean): FormField | string {
  const property = record(raw);
  if (property === undefined) return `field "${name}" is not a schema object`;
  const title = text(property.title);
  const base = defined({
    name,
    label: title ?? name,
    description: text(property.description),
    required,
    sensitive: isSensitiveName(name, title),
  });
  switch (property.type) {
    case 'string': {
      const choices = choicesOf(property);
      if (choices !== undefined) {
        if (choices.length === 0) return `field "${name}" offers no choice`;
        const fallback = typeof property.default === 'string' ? property.default : undefined;
        return defined({ ...base, kind: 'choice' as const, choices, default: fallback });
      }
      const format = property.format;
      if (format !== undefined && !FORMATS.has(format as string))
        return `field "${name}" has the unknown format ${JSON.stringify(format)}`;
      return defined({
        ...base,
        kind: 'text' as const,
        format: format as 'email' | undefined,
        minLength: finite(property.minLength),
        maxLength: finite(property.maxLength),
        default: typeof property.default === 'string' ? property.default : undefined,
      });
    }
    case 'number':
    case 'integer':
      return defined({
        ...base,
        kind: 'number' as const,
        integer: property.type === 'integer',
        minimum: finite(property.minimum),
        maximum: finite(property.maximum),
        default: finite(property.default),
      });
    case 'boolean':
      return defined({
        ...base,
        kind: 'boolean' as const,
        default: typeof property.default === 'boolean' ? property.default : undefined,
      });
    case 'array': {
      const items = record(property.items);
      const choices = items === undefined ? undefined : choicesOf(items);
      if (choices === undefined || choices.length === 0)
        return `field "${name}" is a list without choices`;
      return defined({
        ...base,
        kind: 'choices' as const,
        choices,
        minItems: finite(property.minItems),
        maxItems: finite(property.maxItems),
        default: strings(property.default),
      });
    }
    default:
      return `field "${name}" has the unsupported type ${JSON.stringify(property.type)}`;
  }
}

/**
 * The fields of an MCP form's `requestedSchema`, in the server's order; a string says why the
 * form cannot be asked (nested objects, unknown types: the spec allows flat primitives only).
 */
export function readFormFields(schema: unknown): readonly FormField[] | string {
  const object = record(schema);
  const properties = record(object?.properties);
  if (object === undefined || properties === undefined) return 'the form has no fields';
  const required = new Set(strings(object.required) ?? []);
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const field = readField(name, property, required.has(name));
    if (typeof field === 'string') return field;
    fields.push(field);
  }
  if (fields.length === 0) return 'the form has no fields';
  return fields;
}
