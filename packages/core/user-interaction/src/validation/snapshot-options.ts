import type { AskUserQuestionOption } from '../ask-user-question.js';
import { invalidRequestError } from '../errors/ask-errors.js';
import { REQUEST_LIMITS } from '../request-limits.js';
import { labelKey } from './label-key.js';
import {
  fieldName,
  isArray,
  textProblem,
  typeOf,
  unknownKey,
  unreadableField,
} from './request-field-checks.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

// The allowed keys, checked against the type: a field added to the type must be added here.
const OPTION_KEYS: ReadonlySet<string> = new Set(
  Object.keys({
    label: true,
    value: true,
    description: true,
    recommended: true,
  } satisfies Record<keyof AskUserQuestionOption, true>),
);

/** The name of an option's field, built only when a message needs it. */
function optionField(index: number, key?: string): string {
  return key === undefined ? `options[${index}]` : `options[${index}].${fieldName(key)}`;
}

/** Reads one option's fields once and returns them frozen, or throws `INVALID_REQUEST`. */
function snapshotOption(value: unknown, index: number): AskUserQuestionOption {
  if (typeof value !== 'object' || value === null || isArray(value)) {
    throw invalidRequestError(
      optionField(index),
      `must be an object with a \`label\`, not ${typeOf(value)}`,
    );
  }
  let reading: string | undefined;
  let unknown: string | undefined;
  let label: unknown;
  let optionValue: unknown;
  let description: unknown;
  let recommended: unknown;
  try {
    const source = value as Record<string, unknown>;
    unknown = unknownKey(source, OPTION_KEYS);
    reading = 'label';
    label = source.label;
    reading = 'value';
    optionValue = source.value;
    reading = 'description';
    description = source.description;
    reading = 'recommended';
    recommended = source.recommended;
  } catch (error) {
    throw unreadableField(optionField(index, reading), error);
  }
  if (unknown !== undefined) {
    throw invalidRequestError(optionField(index, unknown), 'is not a field of an option');
  }
  let problem = textProblem(label, REQUEST_LIMITS.labelLength, true);
  if (problem !== undefined) throw invalidRequestError(optionField(index, 'label'), problem);
  problem = textProblem(optionValue, REQUEST_LIMITS.valueLength, false);
  if (problem !== undefined) throw invalidRequestError(optionField(index, 'value'), problem);
  problem = textProblem(description, REQUEST_LIMITS.descriptionLength, false);
  if (problem !== undefined) throw invalidRequestError(optionField(index, 'description'), problem);
  if (recommended !== undefined && typeof recommended !== 'boolean') {
    throw invalidRequestError(
      optionField(index, 'recommended'),
      `must be a boolean, not ${typeOf(recommended)}`,
    );
  }
  const option: Mutable<AskUserQuestionOption> = { label: label as string };
  if (optionValue !== undefined) option.value = optionValue as string;
  if (description !== undefined) option.description = description as string;
  if (recommended !== undefined) option.recommended = recommended;
  return Object.freeze(option);
}

/** Reads the options once each, checks them and returns them frozen (a frozen list of frozen options). */
export function snapshotOptions(value: unknown): readonly AskUserQuestionOption[] | undefined {
  if (value === undefined) return undefined;
  if (!isArray(value))
    throw invalidRequestError('options', `must be an array, not ${typeOf(value)}`);
  let length: unknown;
  try {
    length = value.length;
  } catch (error) {
    throw unreadableField('options', error);
  }
  // Only a Proxy can have a length that is not a whole number.
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    throw invalidRequestError('options', 'must be an array');
  }
  if (length > REQUEST_LIMITS.options) {
    throw invalidRequestError(
      'options',
      `must have at most ${REQUEST_LIMITS.options} entries (it has ${length})`,
    );
  }
  const options: AskUserQuestionOption[] = [];
  // Short lists are the common case: comparing pairs beats building maps for them.
  const long = length > 16;
  const labelIndex = long ? new Map<string, number>() : undefined;
  const valueIndex = long ? new Map<string, number>() : undefined;
  const labels: string[] = [];
  const values: string[] = [];
  let recommended = -1;
  for (let index = 0; index < length; index++) {
    let item: unknown;
    try {
      item = value[index];
    } catch (error) {
      throw unreadableField(`options[${index}]`, error);
    }
    const option = snapshotOption(item, index);
    const label = labelKey(option.label);
    const effectiveValue = option.value ?? option.label;
    let labelTwin: number | undefined;
    let valueTwin: number | undefined;
    if (labelIndex !== undefined && valueIndex !== undefined) {
      labelTwin = labelIndex.get(label);
      valueTwin = valueIndex.get(effectiveValue);
      labelIndex.set(label, index);
      valueIndex.set(effectiveValue, index);
    } else {
      for (let other = 0; other < index; other++) {
        if (labelTwin === undefined && labels[other] === label) labelTwin = other;
        if (valueTwin === undefined && values[other] === effectiveValue) valueTwin = other;
      }
      labels.push(label);
      values.push(effectiveValue);
    }
    if (labelTwin !== undefined) {
      throw invalidRequestError(
        `options[${index}].label`,
        `looks the same as the label of options[${labelTwin}] (${JSON.stringify(option.label)}); labels must be unique, ignoring case, spacing and invisible characters`,
      );
    }
    if (valueTwin !== undefined) {
      throw invalidRequestError(
        `options[${index}].value`,
        `repeats the value of options[${valueTwin}]; values (or labels, where no value is given) must be unique`,
      );
    }
    if (option.recommended === true) {
      if (recommended !== -1) {
        throw invalidRequestError(
          `options[${index}].recommended`,
          `is set, but options[${recommended}] is already recommended; recommend at most one option`,
        );
      }
      recommended = index;
    }
    options.push(option);
  }
  return Object.freeze(options);
}
