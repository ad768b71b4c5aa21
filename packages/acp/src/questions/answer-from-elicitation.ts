import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  answerForOption,
  invalidAnswerError,
  isBlankText,
  optionValue,
  REQUEST_LIMITS,
} from 'dsh-user-interaction';
import { acceptedFormContent } from './accepted-form-content.js';
import { formSchemaForQuestion } from './elicitation-for-question.js';
import type { QuestionFormSchema } from './question-form.js';

function readString(content: Record<string, unknown>, key: string): string | undefined {
  if (!Object.hasOwn(content, key)) return undefined;
  const value = content[key];
  if (typeof value !== 'string') throw invalidAnswerError(`the \`${key}\` field is not a string`);
  return value;
}

function answerFromContent(
  request: AskUserQuestionRequest,
  properties: QuestionFormSchema['properties'],
  fields: Record<string, unknown>,
): AskUserQuestionAnswer {
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
  const { properties } = formSchemaForQuestion(request);
  const fields = acceptedFormContent(response, (key) => Object.hasOwn(properties, key));
  return answerFromContent(request, properties, fields);
}
