import type { AskUserQuestionOption, AskUserQuestionRequest } from './ask-user-question.js';
import { REQUEST_LIMITS } from './request-limits.js';
import { UserInteractionError } from './user-interaction-error.js';

const REQUEST_KEYS = new Set([
  'question',
  'header',
  'options',
  'allowCustom',
  'agent',
  'signal',
  'timeoutMs',
]);

/** An `INVALID_REQUEST` naming the offending field, so a model can correct its call. */
export function invalidRequest(field: string, problem: string): UserInteractionError {
  return new UserInteractionError('INVALID_REQUEST', `Invalid question: \`${field}\` ${problem}.`, {
    field,
  });
}

function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

function checkText(
  value: unknown,
  field: string,
  maxLength: number,
  required: boolean,
): value is string | undefined {
  if (value === undefined) {
    if (required) throw invalidRequest(field, 'is required');
    return true;
  }
  if (typeof value !== 'string')
    throw invalidRequest(field, `must be a string, not ${typeOf(value)}`);
  if (isBlank(value)) throw invalidRequest(field, 'must not be blank');
  if (value.length > maxLength) {
    throw invalidRequest(field, `must be at most ${maxLength} characters (it has ${value.length})`);
  }
  return true;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Reads `signal` without trusting the shape of the request. */
export function signalOf(request: unknown): AbortSignal | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const signal = (request as { signal?: unknown }).signal;
  return isAbortSignal(signal) ? signal : undefined;
}

function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function' &&
    typeof (value as AbortSignal).removeEventListener === 'function'
  );
}

function checkOption(value: unknown, index: number): AskUserQuestionOption {
  const field = `options[${index}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidRequest(field, `must be an object with a \`label\`, not ${typeOf(value)}`);
  }
  const option = value as Record<string, unknown>;
  checkText(option.label, `${field}.label`, REQUEST_LIMITS.labelLength, true);
  checkText(option.value, `${field}.value`, REQUEST_LIMITS.valueLength, false);
  checkText(option.description, `${field}.description`, REQUEST_LIMITS.descriptionLength, false);
  if (option.recommended !== undefined && typeof option.recommended !== 'boolean') {
    throw invalidRequest(
      `${field}.recommended`,
      `must be a boolean, not ${typeOf(option.recommended)}`,
    );
  }
  return value as AskUserQuestionOption;
}

function checkOptions(value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value))
    throw invalidRequest('options', `must be an array, not ${typeOf(value)}`);
  if (value.length > REQUEST_LIMITS.options) {
    throw invalidRequest(
      'options',
      `must have at most ${REQUEST_LIMITS.options} entries (it has ${value.length})`,
    );
  }
  // Short lists are the common case: a linear scan beats building sets for them.
  const labels = value.length > 16 ? new Map<string, number>() : undefined;
  const values = value.length > 16 ? new Map<string, number>() : undefined;
  let recommended = -1;
  for (let index = 0; index < value.length; index++) {
    const option = checkOption(value[index], index);
    const label = option.label.trim().toLowerCase();
    const effectiveValue = option.value ?? option.label;
    const labelTwin = labels
      ? labels.get(label)
      : findTwin(value, index, (o) => o.label.trim().toLowerCase() === label);
    if (labelTwin !== undefined) {
      throw invalidRequest(
        `options[${index}].label`,
        `repeats the label of options[${labelTwin}] ("${option.label}"); labels must be unique`,
      );
    }
    const valueTwin = values
      ? values.get(effectiveValue)
      : findTwin(value, index, (o) => (o.value ?? o.label) === effectiveValue);
    if (valueTwin !== undefined) {
      throw invalidRequest(
        `options[${index}].value`,
        `repeats the value of options[${valueTwin}]; values (or labels, where no value is given) must be unique`,
      );
    }
    labels?.set(label, index);
    values?.set(effectiveValue, index);
    if (option.recommended === true) {
      if (recommended !== -1) {
        throw invalidRequest(
          `options[${index}].recommended`,
          `is set, but options[${recommended}] is already recommended; recommend at most one option`,
        );
      }
      recommended = index;
    }
  }
}

function findTwin(
  options: readonly AskUserQuestionOption[],
  before: number,
  same: (option: AskUserQuestionOption) => boolean,
): number | undefined {
  for (let index = 0; index < before; index++) {
    if (same(options[index] as AskUserQuestionOption)) return index;
  }
  return undefined;
}

/**
 * Checks a question against the contract's rules and returns it typed. Throws
 * `INVALID_REQUEST` naming the first offending field, so a model can correct its call.
 */
export function validateRequest(request: unknown): AskUserQuestionRequest {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw invalidRequest('request', `must be an object, not ${typeOf(request)}`);
  }
  const fields = request as Record<string, unknown>;
  for (const key in fields) {
    if (!REQUEST_KEYS.has(key)) throw invalidRequest(key, 'is not a field of a question');
  }
  checkText(fields.question, 'question', REQUEST_LIMITS.questionLength, true);
  checkText(fields.header, 'header', REQUEST_LIMITS.headerLength, false);
  checkOptions(fields.options);
  if (fields.allowCustom !== undefined && typeof fields.allowCustom !== 'boolean') {
    throw invalidRequest('allowCustom', `must be a boolean, not ${typeOf(fields.allowCustom)}`);
  }
  const agent = fields.agent;
  if (agent !== undefined) {
    if (typeof agent !== 'object' || agent === null) {
      throw invalidRequest('agent', `must be an object with an \`id\`, not ${typeOf(agent)}`);
    }
    const id = (agent as { id?: unknown }).id;
    if (typeof id !== 'string' || isBlank(id))
      throw invalidRequest('agent.id', 'must be a non-blank string');
  }
  if (fields.signal !== undefined && !isAbortSignal(fields.signal)) {
    throw invalidRequest('signal', 'must be an AbortSignal');
  }
  const timeoutMs = fields.timeoutMs;
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > REQUEST_LIMITS.timeoutMs) {
      throw invalidRequest(
        'timeoutMs',
        `must be a number of milliseconds above 0 and at most ${REQUEST_LIMITS.timeoutMs}`,
      );
    }
  }
  return request as AskUserQuestionRequest;
}
