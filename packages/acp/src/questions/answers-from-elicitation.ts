import {
  type AskUserQuestionItem,
  type AskUserQuestionItemAnswer,
  type AskUserQuestionOption,
  type AskUserQuestionsAnswer,
  type AskUserQuestionsRequest,
  acceptsCustomAnswer,
  answerForItem,
  hasOptions,
  invalidAnswerError,
  isBlankText,
  optionValue,
  REQUEST_LIMITS,
} from 'dsh-user-interaction';
import { acceptedFormContent } from './accepted-form-content.js';
import { customAnswerField } from './elicitation-for-questions.js';

/** The field `name` of the content, if the client sent it (own properties only). */
function field(content: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(content, name) ? content[name] : undefined;
}

/** The typed text of a field, trimmed; `undefined` when absent or showing nothing. */
function typedText(value: unknown, id: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidAnswerError(`the answer to \`${id}\` is not text`);
  const text = value.trim();
  if (text.length > REQUEST_LIMITS.answerLength) {
    throw invalidAnswerError(
      `the answer to \`${id}\` is longer than the form's ${REQUEST_LIMITS.answerLength} characters`,
    );
  }
  return isBlankText(text) ? undefined : text;
}

/** The question's options that the values name, in the order sent; throws for any other value. */
function chosenOptions(item: AskUserQuestionItem, values: unknown): AskUserQuestionOption[] {
  if (values === undefined) return [];
  const byValue = new Map((item.options ?? []).map((option) => [optionValue(option), option]));
  const list = item.multiSelect === true ? values : [values];
  if (!Array.isArray(list))
    throw invalidAnswerError(`the choices of \`${item.id}\` are not a list`);
  const chosen = new Set<AskUserQuestionOption>();
  for (const value of list) {
    const option = typeof value === 'string' ? byValue.get(value) : undefined;
    if (option === undefined) {
      throw invalidAnswerError(`a choice of \`${item.id}\` is not one of its options`);
    }
    if (chosen.has(option)) throw invalidAnswerError(`\`${item.id}\` has the same choice twice`);
    chosen.add(option);
  }
  return [...chosen];
}

/** One question's answer from the form's content, checked against what was asked. */
function itemFrom(
  item: AskUserQuestionItem,
  content: Record<string, unknown>,
): AskUserQuestionItemAnswer {
  const { id } = item;
  if (!hasOptions(item)) {
    const text = typedText(field(content, id), id);
    if (text === undefined) throw invalidAnswerError(`\`${id}\` was not answered`);
    return answerForItem(item, [], text);
  }
  // Checked even when typed text wins: a client that sends a choice never offered is broken.
  const options = chosenOptions(item, field(content, id));
  const custom = acceptsCustomAnswer(item)
    ? typedText(field(content, customAnswerField(id)), id)
    : undefined;
  if (item.multiSelect === true) {
    if (options.length === 0 && custom === undefined) {
      throw invalidAnswerError(`\`${id}\` was not answered`);
    }
    return answerForItem(item, options, custom);
  }
  // One choice: typed text replaces the choice, as in the form of one question.
  if (custom !== undefined) return answerForItem(item, [], custom);
  if (options.length === 0) throw invalidAnswerError(`\`${id}\` was not answered`);
  return answerForItem(item, options);
}

/** The names of the form's fields: a question's id, and its typed-answer companion. */
function formFields(request: AskUserQuestionsRequest): Set<string> {
  const known = new Set<string>();
  for (const item of request.questions) {
    known.add(item.id);
    if (hasOptions(item) && acceptsCustomAnswer(item)) known.add(customAnswerField(item.id));
  }
  return known;
}

/**
 * Maps the client's reply to the form of several questions back to every answer: `accept`
 * gives them (a typed answer next to a single choice replaces it, next to ticks adds to them;
 * text is trimmed), `decline` throws `ASK_DECLINED`, `cancel` throws `ASK_CANCELLED`, and
 * anything that does not fit a question throws `INVALID_ANSWER` (a question not answered, a
 * value never offered, a field the form does not have). The messages never repeat what was sent.
 */
export function answersFromElicitation(
  request: AskUserQuestionsRequest,
  response: unknown,
): AskUserQuestionsAnswer {
  const known = formFields(request);
  const fields = acceptedFormContent(response, (key) => known.has(key));
  return { answers: request.questions.map((item) => itemFrom(item, fields)) };
}
