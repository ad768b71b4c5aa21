import type { Agent } from './agent.js';
import type { AskUserQuestionOption, AskUserQuestionRequest } from './ask-user-question.js';
import { hasLoneSurrogate, isBlankText } from './is-blank-text.js';
import { labelKey } from './label-key.js';
import { REQUEST_LIMITS } from './request-limits.js';
import { UserInteractionError } from './user-interaction-error.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

// The allowed keys, checked against the types: a field added to a type must be added here.
const REQUEST_KEYS: ReadonlySet<string> = new Set(
  Object.keys({
    question: true,
    header: true,
    options: true,
    allowCustom: true,
    agent: true,
    signal: true,
    timeoutMs: true,
  } satisfies Record<keyof AskUserQuestionRequest, true>),
);
const OPTION_KEYS: ReadonlySet<string> = new Set(
  Object.keys({
    label: true,
    value: true,
    description: true,
    recommended: true,
  } satisfies Record<keyof AskUserQuestionOption, true>),
);

/** An `INVALID_REQUEST` naming the offending field, so a model can correct its call. */
export function invalidRequest(
  field: string,
  problem: string,
  cause?: unknown,
): UserInteractionError {
  return new UserInteractionError('INVALID_REQUEST', `Invalid question: \`${field}\` ${problem}.`, {
    field,
    ...(cause !== undefined && { cause }),
  });
}

/** A field whose getter or Proxy trap threw: the request cannot be trusted. */
export function unreadableField(field: string, error: unknown): UserInteractionError {
  return invalidRequest(field, 'could not be read (a getter or Proxy trap threw)', error);
}

/** A key as a field name: plain when it is an identifier, quoted otherwise (even an empty key shows). */
export function fieldName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** The first key (own or inherited, enumerable) that is not allowed; reads no value. */
function unknownKey(value: object, allowed: ReadonlySet<string>): string | undefined {
  for (const key in value) if (!allowed.has(key)) return key;
  return undefined;
}

/** What is wrong with a text field, or `undefined`. Field names are built only on failure. */
function textProblem(value: unknown, maxLength: number, required: boolean): string | undefined {
  if (value === undefined) return required ? 'is required' : undefined;
  if (typeof value !== 'string') return `must be a string, not ${typeOf(value)}`;
  if (isBlankText(value)) return 'must not be blank';
  if (value.length > maxLength) {
    return `must be at most ${maxLength} characters (it has ${value.length})`;
  }
  if (hasLoneSurrogate(value)) return 'must be well-formed text (it has a lone surrogate)';
  return undefined;
}

function checkText(value: unknown, field: string, maxLength: number, required: boolean): void {
  const problem = textProblem(value, maxLength, required);
  if (problem !== undefined) throw invalidRequest(field, problem);
}

/** `Array.isArray`, except that a revoked Proxy is not an array instead of a throw. */
function isArray(value: unknown): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** True for an `AbortSignal`, or an object shaped like one; never throws. */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof value !== 'object' || value === null) return false;
  try {
    if (value instanceof AbortSignal) return true;
    const signal = value as AbortSignal;
    return (
      typeof signal.aborted === 'boolean' &&
      typeof signal.addEventListener === 'function' &&
      typeof signal.removeEventListener === 'function'
    );
  } catch {
    return false;
  }
}

/**
 * A request's fields, each read exactly once, before any rule is checked: what is read here
 * is what is checked, and what is checked is what the UI is shown.
 */
export interface RequestFields {
  readonly signal: unknown;
  readonly question: unknown;
  readonly header: unknown;
  readonly options: unknown;
  readonly allowCustom: unknown;
  readonly agent: unknown;
  readonly timeoutMs: unknown;
  /** Why the request cannot be read as a question (not an object, an unknown key, a throwing getter). */
  readonly problem: UserInteractionError | undefined;
}

/** Reads every field of a request once. Never throws: a failure is kept in `problem`. */
export function readRequestFields(request: unknown): RequestFields {
  const fields: Mutable<RequestFields> = {
    signal: undefined,
    question: undefined,
    header: undefined,
    options: undefined,
    allowCustom: undefined,
    agent: undefined,
    timeoutMs: undefined,
    problem: undefined,
  };
  if (typeof request !== 'object' || request === null) {
    fields.problem = invalidRequest('request', `must be an object, not ${typeOf(request)}`);
    return fields;
  }
  if (isArray(request)) {
    fields.problem = invalidRequest('request', 'must be an object, not an array');
    return fields;
  }
  let reading = 'request';
  try {
    const source = request as Record<string, unknown>;
    // The signal first: an aborted one wins over every other problem.
    reading = 'signal';
    fields.signal = source.signal;
    reading = 'request';
    const unknown = unknownKey(source, REQUEST_KEYS);
    if (unknown !== undefined) {
      fields.problem = invalidRequest(fieldName(unknown), 'is not a field of a question');
    }
    reading = 'question';
    fields.question = source.question;
    reading = 'header';
    fields.header = source.header;
    reading = 'options';
    fields.options = source.options;
    reading = 'allowCustom';
    fields.allowCustom = source.allowCustom;
    reading = 'agent';
    fields.agent = source.agent;
    reading = 'timeoutMs';
    fields.timeoutMs = source.timeoutMs;
  } catch (error) {
    fields.problem = unreadableField(reading, error);
  }
  return fields;
}

/** The name of an option's field, built only when a message needs it. */
function optionField(index: number, key?: string): string {
  return key === undefined ? `options[${index}]` : `options[${index}].${fieldName(key)}`;
}

/** Reads one option's fields once and returns them frozen, or throws `INVALID_REQUEST`. */
function snapshotOption(value: unknown, index: number): AskUserQuestionOption {
  if (typeof value !== 'object' || value === null || isArray(value)) {
    throw invalidRequest(
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
    throw invalidRequest(optionField(index, unknown), 'is not a field of an option');
  }
  let problem = textProblem(label, REQUEST_LIMITS.labelLength, true);
  if (problem !== undefined) throw invalidRequest(optionField(index, 'label'), problem);
  problem = textProblem(optionValue, REQUEST_LIMITS.valueLength, false);
  if (problem !== undefined) throw invalidRequest(optionField(index, 'value'), problem);
  problem = textProblem(description, REQUEST_LIMITS.descriptionLength, false);
  if (problem !== undefined) throw invalidRequest(optionField(index, 'description'), problem);
  if (recommended !== undefined && typeof recommended !== 'boolean') {
    throw invalidRequest(
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
function snapshotOptions(value: unknown): readonly AskUserQuestionOption[] | undefined {
  if (value === undefined) return undefined;
  if (!isArray(value)) throw invalidRequest('options', `must be an array, not ${typeOf(value)}`);
  let length: unknown;
  try {
    length = value.length;
  } catch (error) {
    throw unreadableField('options', error);
  }
  // Only a Proxy can have a length that is not a whole number.
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    throw invalidRequest('options', 'must be an array');
  }
  if (length > REQUEST_LIMITS.options) {
    throw invalidRequest(
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
      throw invalidRequest(
        `options[${index}].label`,
        `looks the same as the label of options[${labelTwin}] (${JSON.stringify(option.label)}); labels must be unique, ignoring case, spacing and invisible characters`,
      );
    }
    if (valueTwin !== undefined) {
      throw invalidRequest(
        `options[${index}].value`,
        `repeats the value of options[${valueTwin}]; values (or labels, where no value is given) must be unique`,
      );
    }
    if (option.recommended === true) {
      if (recommended !== -1) {
        throw invalidRequest(
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

/**
 * The calling agent, frozen: a frozen agent whose `id` is a data property (such as dsh-agent's)
 * cannot change, and is kept as it is; any other is copied (its `id`, read once and checked,
 * and its other own fields, such as the asking tool call's id, which UIs route on).
 */
function snapshotAgent(value: unknown): Agent | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) {
    throw invalidRequest('agent', `must be an object with an \`id\`, not ${typeOf(value)}`);
  }
  let entries: [string, unknown][] | undefined;
  let reading: string | undefined;
  let id: unknown;
  try {
    const source = value as Record<string, unknown>;
    const own = Object.isFrozen(source) ? Object.getOwnPropertyDescriptor(source, 'id') : undefined;
    if (own !== undefined && 'value' in own) {
      id = own.value;
    } else {
      entries = [];
      for (const key of Object.keys(source)) {
        if (key === 'id') continue;
        reading = key;
        entries.push([key, source[key]]);
      }
      reading = 'id';
      id = source.id;
    }
  } catch (error) {
    throw unreadableField(reading === undefined ? 'agent' : `agent.${fieldName(reading)}`, error);
  }
  if (typeof id !== 'string' || isBlankText(id) || hasLoneSurrogate(id)) {
    throw invalidRequest('agent.id', 'must be a non-blank string');
  }
  if (entries === undefined) return value as Agent;
  entries.push(['id', id]);
  return Object.freeze(Object.fromEntries(entries)) as unknown as Agent;
}

/**
 * Checks fields read by `readRequestFields` against the contract's rules, and returns the
 * frozen request built from them. Throws `INVALID_REQUEST` naming the first offending field.
 */
export function checkRequestFields(fields: RequestFields): AskUserQuestionRequest {
  if (fields.problem !== undefined) throw fields.problem;
  checkText(fields.question, 'question', REQUEST_LIMITS.questionLength, true);
  checkText(fields.header, 'header', REQUEST_LIMITS.headerLength, false);
  const options = snapshotOptions(fields.options);
  const { allowCustom, signal, timeoutMs } = fields;
  if (allowCustom !== undefined && typeof allowCustom !== 'boolean') {
    throw invalidRequest('allowCustom', `must be a boolean, not ${typeOf(allowCustom)}`);
  }
  const agent = snapshotAgent(fields.agent);
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalidRequest('signal', 'must be an AbortSignal');
  }
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > REQUEST_LIMITS.timeoutMs) {
      throw invalidRequest(
        'timeoutMs',
        `must be a number of milliseconds above 0 and at most ${REQUEST_LIMITS.timeoutMs}`,
      );
    }
  }
  const request: Mutable<AskUserQuestionRequest> = { question: fields.question as string };
  if (fields.header !== undefined) request.header = fields.header as string;
  if (options !== undefined) request.options = options;
  if (allowCustom !== undefined) request.allowCustom = allowCustom;
  if (agent !== undefined) request.agent = agent;
  if (signal !== undefined) request.signal = signal;
  if (timeoutMs !== undefined) request.timeoutMs = timeoutMs;
  return Object.freeze(request);
}

/**
 * Checks a question against the contract's rules and returns a frozen snapshot of it: every
 * field read exactly once, options copied and frozen too, so what was checked is what a UI
 * shows, whatever the caller's object does later. Throws `INVALID_REQUEST` naming the first
 * offending field, so a model can correct its call; never any other error.
 */
export function validateRequest(request: unknown): AskUserQuestionRequest {
  return checkRequestFields(readRequestFields(request));
}
