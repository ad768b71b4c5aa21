import type { FieldValue, FormField } from './form-field.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

function formatProblem(format: string, text: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? undefined : 'is not an email address (name@example.com)';
    case 'uri': {
      const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text);
      return scheme && URL.canParse(text)
        ? undefined
        : 'is not an address (https://example.com/...)';
    }
    case 'date':
      return validDate(text) ? undefined : 'is not a date (YYYY-MM-DD)';
    case 'date-time': {
      const match = DATE_TIME.exec(text);
      const ok =
        match !== null &&
        validDate(match[1] ?? '') &&
        Number(match[2]) < 24 &&
        Number(match[3]) < 60 &&
        Number(match[4]) < 61;
      return ok ? undefined : 'is not a date and time (2026-12-07T14:30:00Z)';
    }
    default:
      return undefined;
  }
}

/** Counts characters as JSON Schema does (code points), not UTF-16 units. */
function length(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Why `value` does not fit `field` (one sentence fragment such as "must be at most 10"), or
 * `undefined` when it fits. The same rules a server checks with JSON Schema: an answer that
 * breaks them is never sent.
 */
export function fieldProblem(field: FormField, value: FieldValue): string | undefined {
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      if (field.minLength !== undefined && length(value) < field.minLength)
        return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && length(value) > field.maxLength)
        return `must be at most ${field.maxLength} characters`;
      return field.format === undefined ? undefined : formatProblem(field.format, value);
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum)
        return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum)
        return `must be at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be yes or no';
    case 'choice':
      return typeof value === 'string' && field.choices.some((choice) => choice.value === value)
        ? undefined
        : 'must be one of the choices';
    case 'choices': {
      if (!Array.isArray(value)) return 'must be a list of choices';
      const list = value as readonly string[];
      if (!list.every((item) => field.choices.some((choice) => choice.value === item)))
        return 'must hold only the choices offered';
      if (new Set(list).size !== list.length) return 'must not repeat a choice';
      if (field.minItems !== undefined && list.length < field.minItems)
        return `needs at least ${field.minItems} choice${field.minItems === 1 ? '' : 's'}`;
      if (field.maxItems !== undefined && list.length > field.maxItems)
        return `takes at most ${field.maxItems} choice${field.maxItems === 1 ? '' : 's'}`;
      return undefined;
    }
  }
}

/** Reads typed text as a number the way a person writes one ("42", "-3.5", "1e3"); else `undefined`. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}
