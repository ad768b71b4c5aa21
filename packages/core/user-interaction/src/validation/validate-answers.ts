import type { AskUserQuestionOption } from '../ask-user-question.js';
import type {
  AskUserQuestionItem,
  AskUserQuestionItemAnswer,
  AskUserQuestionsAnswer,
  AskUserQuestionsRequest,
} from '../ask-user-questions.js';
import { invalidAnswerError } from '../errors/ask-errors.js';
import {
  acceptsCustomAnswer,
  answerForItem,
  hasOptions,
  optionValue,
} from '../question-helpers.js';
import { REQUEST_LIMITS } from '../request-limits.js';
import { hasLoneSurrogate, isBlankText } from './is-blank-text.js';
import { labelKey } from './label-key.js';
import { isArray } from './request-field-checks.js';
import { unreadableAnswer } from './validate-answer.js';

const invalid = invalidAnswerError;

/** A list a UI returned, read once: its items, or `undefined` when it is not an array. */
function readList(value: unknown): unknown[] | undefined {
  if (!isArray(value)) return undefined;
  try {
    return Array.from(value);
  } catch (error) {
    throw unreadableAnswer(error);
  }
}

/** One answer entry's fields, read once. */
function readEntry(entry: unknown): Record<'id' | 'answers' | 'options' | 'custom', unknown> {
  if (typeof entry !== 'object' || entry === null) throw invalid('an answer is not an object');
  try {
    const { id, answers, options, custom } = entry as Record<string, unknown>;
    return { id, answers, options, custom };
  } catch (error) {
    throw unreadableAnswer(error);
  }
}

/** Where each option of a question is, by object and by value: one look-up per chosen option. */
function optionIndex(item: AskUserQuestionItem) {
  const options = item.options ?? [];
  const byObject = new Map<object, number>();
  const byValue = new Map<string, number>();
  options.forEach((option, index) => {
    byObject.set(option, index);
    byValue.set(optionValue(option), index);
  });
  return { options, byObject, byValue };
}

/** The index of the question's own option that a UI's option names; throws when there is none. */
function chosenIndex(index: ReturnType<typeof optionIndex>, chosen: unknown, id: string): number {
  if (typeof chosen !== 'object' || chosen === null) {
    throw invalid(`an option of \`${id}\` is not an option`);
  }
  const own = index.byObject.get(chosen);
  if (own !== undefined) return own;
  let label: unknown;
  let value: unknown;
  try {
    ({ label, value } = chosen as { label?: unknown; value?: unknown });
  } catch (error) {
    throw unreadableAnswer(error);
  }
  if (typeof label !== 'string' || (value !== undefined && typeof value !== 'string')) {
    throw invalid(`an option of \`${id}\` is not an option`);
  }
  // A UI that rebuilt the option (from a wire message, say) still names the same one.
  const found = index.byValue.get(value ?? label);
  const option = found === undefined ? undefined : index.options[found];
  if (option === undefined || labelKey(option.label) !== labelKey(label)) {
    throw invalid(`an option of \`${id}\` is not one of its options`);
  }
  return found as number;
}

/** The typed text of an answer, checked as `ask()` checks a typed answer. */
function checkCustom(item: AskUserQuestionItem, custom: unknown): string | undefined {
  const { id } = item;
  if (custom === undefined) return undefined;
  if (typeof custom !== 'string') throw invalid(`the typed answer of \`${id}\` is not a string`);
  if (custom.length > REQUEST_LIMITS.answerLength) {
    throw invalid(
      `the typed answer of \`${id}\` is longer than ${REQUEST_LIMITS.answerLength} characters (it has ${custom.length})`,
    );
  }
  if (isBlankText(custom)) throw invalid(`the typed answer of \`${id}\` is blank`);
  if (hasLoneSurrogate(custom))
    throw invalid(`the typed answer of \`${id}\` is not well-formed text`);
  if (!acceptsCustomAnswer(item)) {
    throw invalid(`\`${id}\` has a typed answer, but it only accepts its options`);
  }
  return custom;
}

/** One entry checked against its question, rebuilt from the question's own options. */
function checkEntry(
  item: AskUserQuestionItem,
  fields: Record<'answers' | 'options' | 'custom', unknown>,
): AskUserQuestionItemAnswer {
  const { id } = item;
  const chosen = readList(fields.options);
  if (chosen === undefined) throw invalid(`\`options\` of \`${id}\` is not an array`);
  const index = optionIndex(item);
  const indexes = new Set<number>();
  for (const option of chosen) {
    const at = chosenIndex(index, option, id);
    if (indexes.has(at)) throw invalid(`\`${id}\` has the same option twice`);
    indexes.add(at);
  }
  const custom = checkCustom(item, fields.custom);
  const count = indexes.size + (custom === undefined ? 0 : 1);
  if (count === 0) throw invalid(`\`${id}\` has no answer`);
  if (item.multiSelect !== true && hasOptions(item) && count > 1) {
    throw invalid(`\`${id}\` takes one answer, and has ${count}`);
  }
  const options = [...indexes]
    .sort((a, b) => a - b)
    .map((at) => index.options[at] as AskUserQuestionOption);
  const answer = answerForItem(item, options, custom);
  const given = readList(fields.answers);
  const same =
    given !== undefined &&
    given.length === answer.answers.length &&
    given.every((text, at) => text === answer.answers[at]);
  if (!same) {
    throw invalid(
      `\`answers\` of \`${id}\` is not the values of its options in option order, then its typed answer`,
    );
  }
  return answer;
}

/**
 * Checks a UI's answer to several questions and returns a clean copy in question order, whose
 * options are the request's own objects. Throws `INVALID_ANSWER` for a missing or unknown
 * question, an option that is not the question's, two answers to a single choice, a typed answer
 * where only options are accepted, or `answers` that do not match; `ASK_FAILED` when the answer
 * cannot be read. Reads each field once.
 */
export function validateAnswers(
  request: AskUserQuestionsRequest,
  answer: unknown,
): AskUserQuestionsAnswer {
  if (typeof answer !== 'object' || answer === null) throw invalid('it is not an object');
  let list: unknown;
  try {
    list = (answer as { answers?: unknown }).answers;
  } catch (error) {
    throw unreadableAnswer(error);
  }
  const entries = readList(list);
  if (entries === undefined) throw invalid('`answers` is not an array');
  const { questions } = request;
  if (entries.length > questions.length) {
    throw invalid(`it has ${entries.length} answers for ${questions.length} questions`);
  }
  const byId = new Map<string, Record<'answers' | 'options' | 'custom', unknown>>();
  for (const entry of entries) {
    const fields = readEntry(entry);
    const { id } = fields;
    if (typeof id !== 'string' || !questions.some((item) => item.id === id)) {
      throw invalid('an answer names no question that was asked');
    }
    if (byId.has(id)) throw invalid(`\`${id}\` is answered twice`);
    byId.set(id, fields);
  }
  const answers = questions.map((item) => {
    const fields = byId.get(item.id);
    if (fields === undefined) throw invalid(`\`${item.id}\` has no answer`);
    return checkEntry(item, fields);
  });
  return { answers };
}
