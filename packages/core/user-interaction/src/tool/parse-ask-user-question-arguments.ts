import type { AskUserQuestionOption, AskUserQuestionRequest } from '../ask-user-question.js';
import type { AskUserQuestionItem, AskUserQuestionsRequest } from '../ask-user-questions.js';
import { invalidRequestError } from '../errors/ask-errors.js';
import {
  ITEM_FIELDS,
  OPTION_FIELDS,
  QUESTION_FIELDS,
  type QuestionFieldDefinition,
} from '../question-shape.js';
import { fieldName } from '../validation/request-field-checks.js';
import { validateQuestionsRequest } from '../validation/validate-questions-request.js';
import { validateRequest } from '../validation/validate-request.js';
import {
  ASK_USER_QUESTION_ARGUMENT_FIELDS,
  SINGLE_QUESTION_ONLY_FIELDS,
} from './ask-user-question-schema.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses the value of an argument that holds objects (`options`, `questions`). */
type ListParser = (value: unknown, at: string) => unknown;

/**
 * The fields of the model's object as the contract names them (`allow_custom` becomes
 * `allowCustom`), refusing unknown arguments; `null` counts as absent. Booleans are checked
 * here, where the argument's own name can be given. `at` prefixes field names (`questions[2].`).
 */
function readArguments(
  value: Record<string, unknown>,
  fields: Record<string, QuestionFieldDefinition>,
  at: string,
  lists: Partial<Record<'options' | 'questions', ListParser>> = {},
): Record<string, unknown> {
  const byArgument = checkArgumentNames(value, fields, at);
  const read: Record<string, unknown> = {};
  for (const [argument, name] of byArgument) {
    const field = fields[name] as QuestionFieldDefinition;
    const given = value[argument];
    if (given === undefined || given === null) continue;
    if (field.kind === 'boolean' && typeof given !== 'boolean') {
      throw invalidRequestError(`${at}${argument}`, 'must be true or false');
    }
    const list =
      field.kind === 'options' || field.kind === 'questions' ? lists[field.kind] : undefined;
    read[name] = list === undefined ? given : list(given, at);
  }
  return read;
}

/** Each field table's arguments, by argument name (the tables are fixed: built once each). */
const contractNames = new WeakMap<object, ReadonlyMap<string, string>>();

function contractNamesOf(
  fields: Record<string, QuestionFieldDefinition>,
): ReadonlyMap<string, string> {
  let byArgument = contractNames.get(fields);
  if (byArgument === undefined) {
    byArgument = new Map(Object.entries(fields).map(([name, field]) => [field.argument, name]));
    contractNames.set(fields, byArgument);
  }
  return byArgument;
}

/** The contract's name of each argument; throws for an argument that is not one of `fields`. */
function checkArgumentNames(
  value: Record<string, unknown>,
  fields: Record<string, QuestionFieldDefinition>,
  at: string,
): ReadonlyMap<string, string> {
  const byArgument = contractNamesOf(fields);
  for (const key of Object.keys(value)) {
    if (!byArgument.has(key)) {
      throw invalidRequestError(
        `${at}${fieldName(key)}`,
        `is not an argument; allowed: ${[...byArgument.keys()].join(', ')}`,
      );
    }
  }
  return byArgument;
}

function parseOptions(value: unknown, at: string): AskUserQuestionOption[] {
  if (!Array.isArray(value))
    throw invalidRequestError(`${at}options`, 'must be an array of objects');
  return value.map((option: unknown, index) => {
    const field = `${at}options[${index}]`;
    if (!isRecord(option)) {
      throw invalidRequestError(field, 'must be an object such as {"label": "Yes"}');
    }
    return readArguments(option, OPTION_FIELDS, `${field}.`) as unknown as AskUserQuestionOption;
  });
}

function parseQuestions(value: unknown): AskUserQuestionItem[] {
  if (!Array.isArray(value)) throw invalidRequestError('questions', 'must be an array of objects');
  return value.map((item: unknown, index) => {
    const field = `questions[${index}]`;
    if (!isRecord(item)) {
      throw invalidRequestError(
        field,
        'must be an object such as {"id": "database", "question": "Which database?"}',
      );
    }
    return readArguments(item, ITEM_FIELDS, `${field}.`, {
      options: parseOptions,
    }) as unknown as AskUserQuestionItem;
  });
}

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * Turns the model's arguments (an object, or the JSON text of one) into a request: one
 * question (`question` and its fields), or several (`questions`), never both. Throws
 * `INVALID_REQUEST` naming the offending field as the model wrote it. Optional fields may be `null`.
 */
export function parseAskUserQuestionArguments(
  args: unknown,
): AskUserQuestionRequest | AskUserQuestionsRequest {
  return parseArgumentsFor(args, {});
}

/** The caller's fields a request is asked with: the tool's context. */
export type CallerFieldsGiven = Partial<
  Pick<AskUserQuestionRequest, 'agent' | 'signal' | 'timeoutMs'>
>;

/**
 * `parseAskUserQuestionArguments`, with the caller's fields checked in the same pass: the request
 * it returns is the one `ask` (or `askAll`) takes, checked once (a caller's field that is wrong
 * is `INVALID_REQUEST` naming it, as from `ask`).
 */
export function parseArgumentsFor(
  args: unknown,
  caller: CallerFieldsGiven,
): AskUserQuestionRequest | AskUserQuestionsRequest {
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
  checkArgumentNames(value, ASK_USER_QUESTION_ARGUMENT_FIELDS, '');
  const several = isGiven(value.questions);
  if (!several && !isGiven(value.question)) {
    throw invalidRequestError(
      'question',
      'is required: give `question` for one question, or `questions` for several at once',
    );
  }
  for (const name of several ? SINGLE_QUESTION_ONLY_FIELDS : []) {
    const { argument } = QUESTION_FIELDS[name];
    if (!isGiven(value[argument])) continue;
    throw invalidRequestError(
      argument,
      name === 'question'
        ? 'cannot be given with `questions`: give one question as `question`, or several as `questions`'
        : 'belongs inside each of `questions` when several are asked',
    );
  }
  const read = readArguments(value, ASK_USER_QUESTION_ARGUMENT_FIELDS, '', {
    options: parseOptions,
    questions: parseQuestions,
  });
  // The remaining rules are the contract's; their field names match the arguments'.
  const request = { ...read, ...caller };
  return several ? validateQuestionsRequest(request) : validateRequest(request);
}

/** True for a request of several questions (as `parseAskUserQuestionArguments` returns them). */
export function isQuestionsRequest(
  request: AskUserQuestionRequest | AskUserQuestionsRequest,
): request is AskUserQuestionsRequest {
  return Object.hasOwn(request, 'questions');
}
