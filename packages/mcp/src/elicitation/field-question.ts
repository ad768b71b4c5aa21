import type {
  AskUserQuestionItem,
  AskUserQuestionItemAnswer,
  AskUserQuestionOption,
} from 'dsh-user-interaction';
import { parseNumber } from './check-field.js';
import type { FieldValue, FormField } from './form-field.js';

// The values of the options this package adds; a field's own choices are `c:<index>`.
const USE_DEFAULT = 'dsh:default';
const KEEP = 'dsh:keep';
const SKIP = 'dsh:skip';

/** What an answer to a field's question means. */
export type FieldReading =
  | { readonly value: FieldValue }
  | { readonly skip: true }
  | { readonly problem: string };

/** Cuts server text to what a question may hold, saying so with an ellipsis. */
export function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** How a value is shown to the person: hidden for a sensitive field. */
export function shownValue(field: FormField, value: FieldValue): string {
  if (field.sensitive) return '(hidden)';
  if (Array.isArray(value))
    return value.length === 0 ? '(none)' : value.map(label(field)).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return label(field)(String(value));
}

function label(field: FormField): (value: string) => string {
  if (field.kind !== 'choice' && field.kind !== 'choices') return (value) => value;
  return (value) => field.choices.find((choice) => choice.value === value)?.label ?? value;
}

function hint(field: FormField): string {
  switch (field.kind) {
    case 'text': {
      const format = {
        email: 'an email address',
        uri: 'a web address',
        date: 'a date, YYYY-MM-DD',
        'date-time': 'a date and time, 2026-12-07T14:30:00Z',
      } as const;
      const parts = [field.format === undefined ? 'text' : format[field.format]];
      if (field.minLength !== undefined) parts.push(`at least ${field.minLength} characters`);
      if (field.maxLength !== undefined) parts.push(`at most ${field.maxLength} characters`);
      return parts.join(', ');
    }
    case 'number': {
      const kind = field.integer ? 'a whole number' : 'a number';
      if (field.minimum !== undefined && field.maximum !== undefined)
        return `${kind} from ${field.minimum} to ${field.maximum}`;
      if (field.minimum !== undefined) return `${kind}, at least ${field.minimum}`;
      if (field.maximum !== undefined) return `${kind}, at most ${field.maximum}`;
      return kind;
    }
    case 'boolean':
      return 'yes or no';
    case 'choice':
      return 'one choice';
    case 'choices': {
      const parts = ['choose any'];
      if (field.minItems !== undefined) parts.push(`at least ${field.minItems}`);
      if (field.maxItems !== undefined) parts.push(`at most ${field.maxItems}`);
      return parts.join(', ');
    }
  }
}

/**
 * Whether the person may leave the field out. Not a field with a default: a default is applied
 * to a field left out (SEP-1034), so "Leave empty" would send the default anyway.
 */
function optional(field: FormField): boolean {
  if (field.required || field.default !== undefined) return false;
  return field.kind !== 'choices' || (field.minItems ?? 0) === 0;
}

/** What a question on a field says, with the server's message first when `intro` is given. */
function wording(field: FormField, intro: string | undefined, problem: string | undefined): string {
  const lines: string[] = [];
  if (intro !== undefined) lines.push(intro, '');
  lines.push(`${field.label} (${hint(field)}${field.required ? ', required' : ''})`);
  if (field.description !== undefined) lines.push(field.description);
  if (field.kind === 'choices' && field.default !== undefined && field.default.length > 0)
    lines.push(`The server suggests: ${shownValue(field, field.default)}`);
  if (problem !== undefined) lines.push('', `That answer ${problem}. Please answer again.`);
  return clip(lines.join('\n'), 4000);
}

/** What the question on `field` asks: `id` names it in the set; `current` is an answer to keep. */
export function fieldQuestion(
  field: FormField,
  id: string,
  options: { readonly intro?: string; readonly problem?: string; readonly current?: FieldValue },
): AskUserQuestionItem {
  const choices: AskUserQuestionOption[] = [];
  const { current } = options;
  const fallback = field.default;
  const add = (option: AskUserQuestionOption) => choices.push(option);
  if (field.kind === 'boolean') {
    const pick = current ?? fallback;
    add({ label: 'Yes', value: 'true', ...(pick === true && { recommended: true }) });
    add({ label: 'No', value: 'false', ...(pick === false && { recommended: true }) });
  } else if (field.kind === 'choice' || field.kind === 'choices') {
    const pick = field.kind === 'choice' ? (current ?? fallback) : undefined;
    field.choices.forEach((choice, index) => {
      add({
        label: clip(choice.label, 500),
        value: `c:${index}`,
        ...(choice.label !== choice.value && { description: clip(choice.value, 2000) }),
        ...(pick === choice.value && { recommended: true }),
      });
    });
  } else {
    if (current !== undefined)
      add({
        label: clip(`Keep: ${shownValue(field, current)}`, 500),
        value: KEEP,
        recommended: true,
      });
    else if (fallback !== undefined)
      add({
        label: clip(`Use the default: ${shownValue(field, fallback)}`, 500),
        value: USE_DEFAULT,
        recommended: true,
      });
  }
  if (optional(field)) add({ label: 'Leave empty', value: SKIP });
  const typed = field.kind === 'text' || field.kind === 'number';
  return {
    id,
    question: wording(field, options.intro, options.problem),
    header: clip(field.label, 100),
    ...(choices.length > 0 && { options: choices }),
    ...(choices.length > 0 && { allowCustom: typed }),
    ...(field.kind === 'choices' && { multiSelect: true }),
  };
}

/** What the person's answer to `field`'s question says; `current` is the answer they kept. */
export function readFieldAnswer(
  field: FormField,
  answer: AskUserQuestionItemAnswer,
  current?: FieldValue,
): FieldReading {
  const values = answer.options.map((option) => option.value ?? option.label);
  if (values.includes(SKIP)) {
    return values.length === 1 && answer.custom === undefined
      ? { skip: true }
      : { problem: 'mixes "Leave empty" with a choice' };
  }
  if (values[0] === KEEP && current !== undefined) return { value: current };
  if (values[0] === USE_DEFAULT && field.default !== undefined) return { value: field.default };
  switch (field.kind) {
    case 'boolean':
      return { value: values[0] === 'true' };
    case 'choice':
    case 'choices': {
      const chosen = values.map((value) => field.choices[Number(value.slice(2))]?.value ?? '');
      return field.kind === 'choice' ? { value: chosen[0] ?? '' } : { value: chosen };
    }
    case 'number': {
      const number = parseNumber(answer.custom ?? '');
      return number === undefined ? { problem: 'is not a number' } : { value: number };
    }
    case 'text':
      return { value: answer.custom ?? '' };
  }
}
