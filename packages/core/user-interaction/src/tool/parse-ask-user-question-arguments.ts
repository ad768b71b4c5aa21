import type { AskUserQuestionOption, AskUserQuestionRequest } from '../ask-user-question.js';
import { invalidRequestError } from '../errors/ask-errors.js';
import { OPTION_FIELDS, QUESTION_FIELDS, type QuestionFieldDefinition } from '../question-shape.js';
import { fieldName } from '../validation/request-field-checks.js';
import { validateRequest } from '../validation/validate-request.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of the model's object as the contract names them (`allow_custom` becomes
 * `allowCustom`), refusing unknown arguments; `null` counts as absent. Booleans are checked
 * here, where the argument's own name can be given.
 */
function readArguments(
  value: Record<string, unknown>,
  fields: Record<string, QuestionFieldDefinition>,
  prefix: string,
  options: (value: unknown) => unknown,
): Record<string, unknown> {
  const byArgument = new Map(Object.entries(fields).map(([name, field]) => [field.argument, name]));
  for (const key of Object.keys(value)) {
    if (!byArgument.has(key)) {
      throw invalidRequestError(
        `${prefix}${fieldName(key)}`,
        `is not an argument; allowed: ${[...byArgument.keys()].join(', ')}`,
      );
    }
  }
  const read: Record<string, unknown> = {};
  for (const [argument, name] of byArgument) {
    const field = fields[name] as QuestionFieldDefinition;
    const given = value[argument];
    if (given === undefined || given === null) continue;
    if (field.kind === 'boolean' && typeof given !== 'boolean') {
      throw invalidRequestError(`${prefix}${argument}`, 'must be true or false');
    }
    read[name] = field.kind === 'options' ? options(given) : given;
  }
  return read;
}

function parseOption(value: unknown, index: number): AskUserQuestionOption {
  const field = `options[${index}]`;
  if (!isRecord(value)) {
    throw invalidRequestError(field, 'must be an object such as {"label": "Yes"}');
  }
  return readArguments(
    value,
    OPTION_FIELDS,
    `${field}.`,
    () => undefined,
  ) as unknown as AskUserQuestionOption;
}

function parseOptions(value: unknown): AskUserQuestionOption[] {
  if (!Array.isArray(value)) throw invalidRequestError('options', 'must be an array of objects');
  return value.map(parseOption);
}

/**
 * Turns the model's arguments (an object, or the JSON text of one) into a request, or
 * throws `INVALID_REQUEST` naming the offending field. Optional fields may be `null`.
 */
export function parseAskUserQuestionArguments(args: unknown): AskUserQuestionRequest {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidRequestError('arguments', 'are not valid JSON');
    }
  }
  if (!isRecord(value)) {
    throw invalidRequestError('arguments', 'must be a JSON object with a `question`');
  }
  // The remaining rules are the contract's; their field names match the arguments'.
  return validateRequest(readArguments(value, QUESTION_FIELDS, '', parseOptions));
}
