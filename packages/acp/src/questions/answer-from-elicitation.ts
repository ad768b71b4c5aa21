import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  answerForOption,
  askCancelledError,
  askDeclinedError,
  invalidAnswerError,
  isBlankText,
  optionValue,
  REQUEST_LIMITS,
} from 'dsh-user-interaction';
import { formSchemaForQuestion } from './elicitation-for-question.js';
import { isRecord } from './is-record.js';

function readString(content: Record<string, unknown>, key: string): string | undefined {
  if (!Object.hasOwn(content, key)) return undefined;
  const value = content[key];
  if (typeof value !== 'string') throw invalidAnswerError(`the \`${key}\` field is not a string`);
  return value;
}

function answerFromContent(
  request: AskUserQuestionRequest,
  content: unknown,
): AskUserQuestionAnswer {
  // ACP lets an accept carry no content; that is an empty form, checked like any other.
  const fields = content === undefined || content === null ? {} : content;
  if (!isRecord(fields)) throw invalidAnswerError('the form content is not an object');
  const { properties } = formSchemaForQuestion(request);
  for (const key of Object.keys(fields)) {
    if (!Object.hasOwn(properties, key)) {
      throw invalidAnswerError('the form content has a field the form does not have');
    }
  }
  const choice = readString(fields, 'choice');
  const text = readString(fields, 'text')?.trim();
  const option =
    choice === undefined
      ? undefined
      : request.options?.find((candidate) => optionValue(candidate) === choice);
  // Checked even when text wins: a client that sends a choice we never offered is broken.
  if (choice !== undefined && option === undefined) {
    throw invalidAnswerError("the choice is not one of the question's options");
  }
  if (text !== undefined && text.length > REQUEST_LIMITS.answerLength) {
    throw invalidAnswerError(
      `the text is longer than the form's ${REQUEST_LIMITS.answerLength} characters`,
    );
  }
  // Text that shows nothing (spaces, control or zero-width characters) is no answer.
  if (text !== undefined && !isBlankText(text)) return { answer: text };
  if (option !== undefined) return answerForOption(option);
  throw invalidAnswerError(
    properties.choice === undefined ? 'the answer is blank' : 'no option was chosen',
  );
}

/**
 * Maps the client's `elicitation/create` reply, as received, back to the person's answer:
 * `accept` gives the answer (a filled `text` wins over `choice`, text is trimmed), `decline`
 * throws `ASK_DECLINED`, `cancel` throws `ASK_CANCELLED`, and anything that does not fit the
 * question throws `INVALID_ANSWER`.
 */
export function answerFromElicitation(
  request: AskUserQuestionRequest,
  response: unknown,
): AskUserQuestionAnswer {
  if (!isRecord(response)) throw invalidAnswerError('the reply is not an object');
  switch (response.action) {
    case 'accept':
      return answerFromContent(request, response.content);
    case 'decline':
      throw askDeclinedError();
    case 'cancel':
      throw askCancelledError();
    default:
      throw invalidAnswerError('the reply has no known action (accept, decline or cancel)');
  }
}
