import type { AskUserQuestionItem, AskUserQuestionsRequest } from '../ask-user-questions.js';
import { invalidRequestError } from '../errors/ask-errors.js';
import type { UserInteractionError } from '../errors/user-interaction-error.js';
import { hasOptions } from '../question-helpers.js';
import {
  ITEM_FIELD_NAMES,
  ITEM_FIELDS,
  QUESTIONS_FIELDS,
  QUESTIONS_REQUEST_FIELD_NAMES,
} from '../question-shape.js';
import { markChecked } from './checked-requests.js';
import { readEntry, readKnownFields, readLength } from './read-known-fields.js';
import { fieldName, isArray, textProblem, typeOf } from './request-field-checks.js';
import {
  checkCallerFields,
  checkQuestionFields,
  type Mutable,
  readFieldsOnce,
  withCallerFields,
} from './validate-request.js';

const REQUEST_KEYS: ReadonlySet<string> = new Set(QUESTIONS_REQUEST_FIELD_NAMES);
const ITEM_KEYS: ReadonlySet<string> = new Set(ITEM_FIELD_NAMES);
const ID = new RegExp(ITEM_FIELDS.id.pattern.source);
const { minItems, maxItems } = QUESTIONS_FIELDS.questions;

/** The fields of a request of several questions, each read exactly once. */
export type QuestionsRequestFields = {
  readonly [K in keyof AskUserQuestionsRequest]-?: unknown;
} & {
  /** Why the request cannot be read (not an object, an unknown key, a throwing getter). */
  readonly problem: UserInteractionError | undefined;
};

/** Reads every field of a request of several questions once. Never throws. */
export function readQuestionsRequestFields(request: unknown): QuestionsRequestFields {
  return readFieldsOnce(
    request,
    QUESTIONS_REQUEST_FIELD_NAMES,
    REQUEST_KEYS,
    'a request of several questions',
  ) as QuestionsRequestFields;
}

/** The id's problem, if any: a text of the id's alphabet, unique in the request. */
function idProblem(id: unknown, ids: ReadonlyMap<string, number>): string | undefined {
  const { maxLength, pattern } = ITEM_FIELDS.id;
  const problem = textProblem(id, maxLength, true);
  if (problem !== undefined) return problem;
  if (!ID.test(id as string)) return pattern.problem;
  const twin = ids.get(id as string);
  if (twin !== undefined) return `repeats the id of questions[${twin}]; ids must be unique`;
  return undefined;
}

/**
 * Reads one question of several once, checks it with the rules of a question (its fields
 * named `questions[<index>].…`) and its own (`id`, `multiSelect`), and returns it frozen.
 */
function snapshotItem(
  value: unknown,
  index: number,
  ids: Map<string, number>,
): AskUserQuestionItem {
  const at = `questions[${index}].`;
  if (typeof value !== 'object' || value === null || isArray(value)) {
    throw invalidRequestError(
      `questions[${index}]`,
      `must be an object with an \`id\` and a \`question\`, not ${typeOf(value)}`,
    );
  }
  const read = readKnownFields(value, ITEM_FIELD_NAMES, ITEM_KEYS, 'a question', (key) =>
    key === undefined ? `questions[${index}]` : `${at}${fieldName(key)}`,
  );
  const problem = idProblem(read.id, ids);
  if (problem !== undefined) throw invalidRequestError(`${at}id`, problem);
  const id = read.id as string;
  ids.set(id, index);
  const question = checkQuestionFields(read as Parameters<typeof checkQuestionFields>[0], at);
  const { multiSelect } = read;
  if (multiSelect !== undefined && typeof multiSelect !== 'boolean') {
    throw invalidRequestError(`${at}multiSelect`, `must be a boolean, not ${typeOf(multiSelect)}`);
  }
  if (multiSelect === true && !hasOptions(question)) {
    throw invalidRequestError(
      `${at}options`,
      'are needed for a question that takes several choices: give the options to choose from',
    );
  }
  const item: Mutable<AskUserQuestionItem> = { id, ...question };
  if (multiSelect !== undefined) item.multiSelect = multiSelect;
  return Object.freeze(item);
}

/** Reads the questions once each, checks them and returns them frozen. */
function snapshotItems(value: unknown): readonly AskUserQuestionItem[] {
  if (value === undefined) throw invalidRequestError('questions', 'is required');
  const length = readLength(value, 'questions');
  if (length < minItems || length > maxItems) {
    throw invalidRequestError(
      'questions',
      `must have ${minItems} to ${maxItems} questions (it has ${length})`,
    );
  }
  const items: AskUserQuestionItem[] = [];
  const ids = new Map<string, number>();
  for (let index = 0; index < length; index++) {
    items.push(snapshotItem(readEntry(value, index, `questions[${index}]`), index, ids));
  }
  return Object.freeze(items);
}

/**
 * Checks fields read by `readQuestionsRequestFields` and returns the frozen request built from
 * them. Throws `INVALID_REQUEST` naming the first offending field.
 */
export function checkQuestionsRequestFields(
  fields: QuestionsRequestFields,
): AskUserQuestionsRequest {
  if (fields.problem !== undefined) throw fields.problem;
  const questions = snapshotItems(fields.questions);
  const { maxLength } = QUESTIONS_FIELDS.header;
  const problem = textProblem(fields.header, maxLength, false);
  if (problem !== undefined) throw invalidRequestError('header', problem);
  const request: Mutable<AskUserQuestionsRequest> = { questions };
  if (fields.header !== undefined) request.header = fields.header as string;
  return markChecked(
    'questions',
    Object.freeze(withCallerFields(request, checkCallerFields(fields))),
  );
}

/**
 * Checks several questions against the contract's rules (each question's as for `ask()`, its
 * fields named `questions[2].options[0].label`; ids unique; a multi-select needs options) and
 * returns a frozen snapshot, every field read once. Throws `INVALID_REQUEST`, never anything else.
 */
export function validateQuestionsRequest(request: unknown): AskUserQuestionsRequest {
  return checkQuestionsRequestFields(readQuestionsRequestFields(request));
}
