import type { Agent } from '../agent.js';
import type { AskUserQuestionRequest } from '../ask-user-question.js';
import { invalidRequestError } from '../errors/ask-errors.js';
import type { UserInteractionError } from '../errors/user-interaction-error.js';
import { QUESTION_FIELDS, REQUEST_FIELD_NAMES } from '../question-shape.js';
import { REQUEST_LIMITS } from '../request-limits.js';
import { markChecked } from './checked-requests.js';
import { hasLoneSurrogate, isBlankText } from './is-blank-text.js';
import {
  fieldName,
  isArray,
  textProblem,
  typeOf,
  unknownKey,
  unreadableField,
} from './request-field-checks.js';
import { snapshotOptions } from './snapshot-options.js';

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const REQUEST_KEYS: ReadonlySet<string> = new Set(REQUEST_FIELD_NAMES);

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
export type RequestFields = { readonly [K in keyof AskUserQuestionRequest]-?: unknown } & {
  /** Why the request cannot be read as a question (not an object, an unknown key, a throwing getter). */
  readonly problem: UserInteractionError | undefined;
};

/** Reads every field of a request once. Never throws: a failure is kept in `problem`. */
export function readRequestFields(request: unknown): RequestFields {
  return readFieldsOnce(request, REQUEST_FIELD_NAMES, REQUEST_KEYS, 'a question') as RequestFields;
}

/**
 * Reads `names` of a request once each, `signal` first and the keys right after it (an
 * aborted signal wins over every other problem), refusing any key not in `allowed` as not a
 * field of `noun`. Never throws: a failure is kept in `problem`.
 */
export function readFieldsOnce(
  request: unknown,
  names: readonly string[],
  allowed: ReadonlySet<string>,
  noun: string,
): Record<string, unknown> & { readonly problem: UserInteractionError | undefined } {
  const fields: Record<string, unknown> & { problem: UserInteractionError | undefined } = {
    problem: undefined,
  };
  const read = fields;
  if (typeof request !== 'object' || request === null) {
    fields.problem = invalidRequestError('request', `must be an object, not ${typeOf(request)}`);
    return read;
  }
  if (isArray(request)) {
    fields.problem = invalidRequestError('request', 'must be an object, not an array');
    return read;
  }
  let reading = 'request';
  try {
    const source = request as Record<string, unknown>;
    for (const name of names) {
      reading = name;
      fields[name] = source[name];
      if (name !== 'signal') continue;
      // Right after the signal (an aborted one wins over every other problem), the keys.
      reading = 'request';
      const unknown = unknownKey(source, allowed);
      if (unknown !== undefined) {
        fields.problem = invalidRequestError(fieldName(unknown), `is not a field of ${noun}`);
      }
    }
  } catch (error) {
    fields.problem = unreadableField(reading, error);
  }
  return read;
}

/**
 * Whether nothing of `value` can change: frozen, its own fields data (no getter to run again),
 * and it inherits from `Object.prototype` or nothing (a prototype of the caller's can gain a
 * `toolCallId` later). A Proxy can still answer for a key it does not hold: not detectable here.
 */
function unchanging(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Reflect.ownKeys(value).every(
    (key) => 'value' in (Object.getOwnPropertyDescriptor(value, key) ?? {}),
  );
}

/**
 * The calling agent, frozen: a frozen agent whose fields are data properties, inheriting only
 * from `Object.prototype` (such as dsh-agent's), cannot change, and is kept as it is; any other
 * is copied (its `id`, read once and checked,
 * and its other own fields, such as the asking tool call's id, which UIs route on).
 */
export function snapshotAgent(value: unknown): Agent | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) {
    throw invalidRequestError('agent', `must be an object with an \`id\`, not ${typeOf(value)}`);
  }
  let entries: [string, unknown][] | undefined;
  let reading: string | undefined;
  let id: unknown;
  try {
    const source = value as Record<string, unknown>;
    const own = unchanging(source) ? Object.getOwnPropertyDescriptor(source, 'id') : undefined;
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
    throw invalidRequestError('agent.id', 'must be a non-blank string');
  }
  if (entries === undefined) return value as Agent;
  entries.push(['id', id]);
  return Object.freeze(Object.fromEntries(entries)) as unknown as Agent;
}

/** The fields a question's caller adds, checked: the same for one question and for several. */
export interface CallerFields {
  readonly agent: Agent | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
}

/** Checks `agent`, `signal` and `timeoutMs` as read; throws `INVALID_REQUEST` naming the field. */
export function checkCallerFields(fields: {
  readonly agent: unknown;
  readonly signal: unknown;
  readonly timeoutMs: unknown;
}): CallerFields {
  const { signal, timeoutMs } = fields;
  const agent = snapshotAgent(fields.agent);
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalidRequestError('signal', 'must be an AbortSignal');
  }
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > REQUEST_LIMITS.timeoutMs) {
      throw invalidRequestError(
        'timeoutMs',
        `must be a number of milliseconds above 0 and at most ${REQUEST_LIMITS.timeoutMs}`,
      );
    }
  }
  return { agent, signal, timeoutMs };
}

/** What a question is, whether asked alone or as one of several: its checked fields. */
export type QuestionFields = Mutable<
  Pick<AskUserQuestionRequest, 'question' | 'header' | 'options' | 'allowCustom'>
>;

/**
 * Checks the fields that make a question (`question`, `header`, `options`, `allowCustom`), as
 * read, and returns them with absent ones left out. `at` prefixes every field name, so that
 * the same rules name `questions[2].options[0].label` for one question of several.
 */
export function checkQuestionFields(
  fields: { readonly [K in keyof QuestionFields]-?: unknown },
  at = '',
): QuestionFields {
  for (const name of ['question', 'header'] as const) {
    const { maxLength, required } = QUESTION_FIELDS[name] as { maxLength: number; required?: true };
    const problem = textProblem(fields[name], maxLength, required === true);
    if (problem !== undefined) throw invalidRequestError(`${at}${name}`, problem);
  }
  const options = snapshotOptions(fields.options, at);
  const { allowCustom } = fields;
  if (allowCustom !== undefined && typeof allowCustom !== 'boolean') {
    throw invalidRequestError(`${at}allowCustom`, `must be a boolean, not ${typeOf(allowCustom)}`);
  }
  const question: QuestionFields = { question: fields.question as string };
  if (fields.header !== undefined) question.header = fields.header as string;
  if (options !== undefined) question.options = options;
  if (allowCustom !== undefined) question.allowCustom = allowCustom;
  return question;
}

/** Adds the caller's fields that are present to a request being built. */
export function withCallerFields<T extends object>(
  request: T,
  caller: CallerFields,
): T & Pick<AskUserQuestionRequest, 'agent' | 'signal' | 'timeoutMs'> {
  const built: T & Mutable<Pick<AskUserQuestionRequest, 'agent' | 'signal' | 'timeoutMs'>> =
    request;
  if (caller.agent !== undefined) built.agent = caller.agent;
  if (caller.signal !== undefined) built.signal = caller.signal;
  if (caller.timeoutMs !== undefined) built.timeoutMs = caller.timeoutMs;
  return built;
}

/**
 * Checks fields read by `readRequestFields` against the contract's rules, and returns the
 * frozen request built from them. Throws `INVALID_REQUEST` naming the first offending field.
 */
export function checkRequestFields(fields: RequestFields): AskUserQuestionRequest {
  if (fields.problem !== undefined) throw fields.problem;
  const question = checkQuestionFields(fields);
  return markChecked(
    'question',
    Object.freeze(withCallerFields(question, checkCallerFields(fields))),
  );
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
