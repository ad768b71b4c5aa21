import type { Agent } from '../agent.js';
import type { AskUserQuestionRequest } from '../ask-user-question.js';
import { invalidRequestError } from '../errors/ask-errors.js';
import type { UserInteractionError } from '../errors/user-interaction-error.js';
import { QUESTION_FIELDS, REQUEST_FIELD_NAMES } from '../question-shape.js';
import { REQUEST_LIMITS } from '../request-limits.js';
import { hasLoneSurrogate, isBlankText } from './is-blank-text.js';
import {
  checkText,
  fieldName,
  isArray,
  typeOf,
  unknownKey,
  unreadableField,
} from './request-field-checks.js';
import { snapshotOptions } from './snapshot-options.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

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
  const fields: Record<string, unknown> = { problem: undefined };
  const read = fields as RequestFields;
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
    for (const name of REQUEST_FIELD_NAMES) {
      reading = name;
      fields[name] = source[name];
      if (name !== 'signal') continue;
      // Right after the signal (an aborted one wins over every other problem), the keys.
      reading = 'request';
      const unknown = unknownKey(source, REQUEST_KEYS);
      if (unknown !== undefined) {
        fields.problem = invalidRequestError(fieldName(unknown), 'is not a field of a question');
      }
    }
  } catch (error) {
    fields.problem = unreadableField(reading, error);
  }
  return read;
}

/**
 * The calling agent, frozen: a frozen agent whose `id` is a data property (such as dsh-agent's)
 * cannot change, and is kept as it is; any other is copied (its `id`, read once and checked,
 * and its other own fields, such as the asking tool call's id, which UIs route on).
 */
function snapshotAgent(value: unknown): Agent | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) {
    throw invalidRequestError('agent', `must be an object with an \`id\`, not ${typeOf(value)}`);
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
    throw invalidRequestError('agent.id', 'must be a non-blank string');
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
  for (const name of ['question', 'header'] as const) {
    const { maxLength, required } = QUESTION_FIELDS[name] as { maxLength: number; required?: true };
    checkText(fields[name], name, maxLength, required === true);
  }
  const options = snapshotOptions(fields.options);
  const { allowCustom, signal, timeoutMs } = fields;
  if (allowCustom !== undefined && typeof allowCustom !== 'boolean') {
    throw invalidRequestError('allowCustom', `must be a boolean, not ${typeOf(allowCustom)}`);
  }
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
