import type { AskUserQuestionOption, AskUserQuestionRequest } from './ask-user-question.js';
import { isBlankText } from './is-blank-text.js';
import { REQUEST_LIMITS } from './request-limits.js';
import { UserInteractionError } from './user-interaction-error.js';

function isRequestKey(key: string): boolean {
  switch (key) {
    case 'question':
    case 'header':
    case 'options':
    case 'allowCustom':
    case 'agent':
    case 'signal':
    case 'timeoutMs':
      return true;
    default:
      return false;
  }
}

/** An `INVALID_REQUEST` naming the offending field, so a model can correct its call. */
export function invalidRequest(field: string, problem: string): UserInteractionError {
  return new UserInteractionError('INVALID_REQUEST', `Invalid question: \`${field}\` ${problem}.`, {
    field,
  });
}

/** A key as a field name: plain when it is an identifier, quoted otherwise (even an empty key shows). */
export function fieldName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** What is wrong with a text field, or `undefined`. Field names are built only on failure. */
function textProblem(value: unknown, maxLength: number, required: boolean): string | undefined {
  if (value === undefined) return required ? 'is required' : undefined;
  if (typeof value !== 'string') return `must be a string, not ${typeOf(value)}`;
  if (isBlankText(value)) return 'must not be blank';
  if (value.length > maxLength) {
    return `must be at most ${maxLength} characters (it has ${value.length})`;
  }
  return undefined;
}

function checkText(value: unknown, field: string, maxLength: number, required: boolean): void {
  const problem = textProblem(value, maxLength, required);
  if (problem !== undefined) throw invalidRequest(field, problem);
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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidRequest(
      `options[${index}]`,
      `must be an object with a \`label\`, not ${typeOf(value)}`,
    );
  }
  const option = value as Record<string, unknown>;
  let problem = textProblem(option.label, REQUEST_LIMITS.labelLength, true);
  if (problem !== undefined) throw invalidRequest(`options[${index}].label`, problem);
  problem = textProblem(option.value, REQUEST_LIMITS.valueLength, false);
  if (problem !== undefined) throw invalidRequest(`options[${index}].value`, problem);
  problem = textProblem(option.description, REQUEST_LIMITS.descriptionLength, false);
  if (problem !== undefined) throw invalidRequest(`options[${index}].description`, problem);
  if (option.recommended !== undefined && typeof option.recommended !== 'boolean') {
    throw invalidRequest(
      `options[${index}].recommended`,
      `must be a boolean, not ${typeOf(option.recommended)}`,
    );
  }
  return value as AskUserQuestionOption;
}

/** Labels the person could not tell apart: equal ignoring case and surrounding spaces. */
function labelKey(label: string): string {
  return label.trim().toLowerCase();
}

function checkOptions(value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    throw invalidRequest('options', `must be an array, not ${typeOf(value)}`);
  }
  if (value.length > REQUEST_LIMITS.options) {
    throw invalidRequest(
      'options',
      `must have at most ${REQUEST_LIMITS.options} entries (it has ${value.length})`,
    );
  }
  // Short lists are the common case: comparing pairs beats building maps for them.
  const long = value.length > 16;
  const labelIndex = long ? new Map<string, number>() : undefined;
  const valueIndex = long ? new Map<string, number>() : undefined;
  const labels: string[] = [];
  let recommended = -1;
  for (let index = 0; index < value.length; index++) {
    const option = checkOption(value[index], index);
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
        const earlier = value[other] as AskUserQuestionOption;
        if (labelTwin === undefined && labels[other] === label) labelTwin = other;
        if (valueTwin === undefined && (earlier.value ?? earlier.label) === effectiveValue) {
          valueTwin = other;
        }
      }
      labels.push(label);
    }
    if (labelTwin !== undefined) {
      throw invalidRequest(
        `options[${index}].label`,
        `repeats the label of options[${labelTwin}] ("${option.label}"); labels must be unique`,
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
  }
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
    if (!isRequestKey(key)) {
      throw invalidRequest(fieldName(key), 'is not a field of a question');
    }
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
    if (typeof id !== 'string' || isBlankText(id))
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
