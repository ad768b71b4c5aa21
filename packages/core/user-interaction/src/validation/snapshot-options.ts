import type { AskUserQuestionOption } from '../ask-user-question.js';
import { invalidRequestError } from '../errors/ask-errors.js';
import { OPTION_FIELD_NAMES, OPTION_FIELDS } from '../question-shape.js';
import { REQUEST_LIMITS } from '../request-limits.js';
import { labelKey } from './label-key.js';
import { readEntry, readKnownFields, readLength } from './read-known-fields.js';
import { fieldName, isArray, textProblem, typeOf } from './request-field-checks.js';

const OPTION_KEYS: ReadonlySet<string> = new Set(OPTION_FIELD_NAMES);

/** The name of an option's field, built only when a message needs it. */
function optionField(at: string, index: number, key?: string): string {
  return key === undefined ? `${at}options[${index}]` : `${at}options[${index}].${fieldName(key)}`;
}

/** Reads one option's fields once and returns them frozen, or throws `INVALID_REQUEST`. */
function snapshotOption(value: unknown, index: number, at: string): AskUserQuestionOption {
  if (typeof value !== 'object' || value === null || isArray(value)) {
    throw invalidRequestError(
      optionField(at, index),
      `must be an object with a \`label\`, not ${typeOf(value)}`,
    );
  }
  const read = readKnownFields(value, OPTION_FIELD_NAMES, OPTION_KEYS, 'an option', (key) =>
    optionField(at, index, key),
  );
  const option: Record<string, unknown> = {};
  for (const name of OPTION_FIELD_NAMES) {
    const definition = OPTION_FIELDS[name];
    const field = read[name];
    if (definition.kind === 'text') {
      const required = 'required' in definition && definition.required;
      const problem = textProblem(field, definition.maxLength, required);
      if (problem !== undefined) throw invalidRequestError(optionField(at, index, name), problem);
    } else if (field !== undefined && typeof field !== 'boolean') {
      throw invalidRequestError(
        optionField(at, index, name),
        `must be a boolean, not ${typeOf(field)}`,
      );
    }
    if (field !== undefined) option[name] = field;
  }
  return Object.freeze(option) as unknown as AskUserQuestionOption;
}

/**
 * Reads the options once each, checks them and returns them frozen (a frozen list of frozen
 * options). `at` prefixes every field name (`questions[2].`).
 */
export function snapshotOptions(
  value: unknown,
  at = '',
): readonly AskUserQuestionOption[] | undefined {
  if (value === undefined) return undefined;
  const field = `${at}options`;
  const length = readLength(value, field);
  if (length > REQUEST_LIMITS.options) {
    throw invalidRequestError(
      field,
      `must have at most ${REQUEST_LIMITS.options} entries (it has ${length})`,
    );
  }
  const options: AskUserQuestionOption[] = [];
  // Where each label key and each value was first seen: one look-up per option, whatever the length.
  const labels = new Map<string, number>();
  const values = new Map<string, number>();
  let recommended = -1;
  for (let index = 0; index < length; index++) {
    const item = readEntry(value, index, optionField(at, index));
    const option = snapshotOption(item, index, at);
    const label = labelKey(option.label);
    const effectiveValue = option.value ?? option.label;
    const labelTwin = labels.get(label);
    if (labelTwin !== undefined) {
      throw invalidRequestError(
        optionField(at, index, 'label'),
        `looks the same as the label of ${at}options[${labelTwin}] (${JSON.stringify(option.label)}); labels must be unique, ignoring case, spacing and invisible characters`,
      );
    }
    const valueTwin = values.get(effectiveValue);
    if (valueTwin !== undefined) {
      throw invalidRequestError(
        optionField(at, index, 'value'),
        `repeats the value of ${at}options[${valueTwin}]; values (or labels, where no value is given) must be unique`,
      );
    }
    labels.set(label, index);
    values.set(effectiveValue, index);
    if (option.recommended === true) {
      if (recommended !== -1) {
        throw invalidRequestError(
          optionField(at, index, 'recommended'),
          `is set, but ${at}options[${recommended}] is already recommended; recommend at most one option`,
        );
      }
      recommended = index;
    }
    options.push(option);
  }
  return Object.freeze(options);
}
