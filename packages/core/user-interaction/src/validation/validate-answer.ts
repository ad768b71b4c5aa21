import type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionRequest,
} from '../ask-user-question.js';
import { askFailedError, invalidAnswerError } from '../errors/ask-errors.js';
import type { UserInteractionError } from '../errors/user-interaction-error.js';
import { acceptsCustomAnswer, optionValue } from '../question-helpers.js';
import { REQUEST_LIMITS } from '../request-limits.js';
import { hasLoneSurrogate, isBlankText } from './is-blank-text.js';
import { labelKey } from './label-key.js';

const invalid = invalidAnswerError;

/** An answer whose getter or Proxy trap threw: the UI failed, whatever it meant to say. */
export function unreadableAnswer(error: unknown): UserInteractionError {
  return askFailedError(error, 'its answer cannot be read');
}

const unreadable = unreadableAnswer;

/** The question's own option that a UI's option names, or `undefined`. */
export function findOption(
  request: Pick<AskUserQuestionRequest, 'options'>,
  chosen: object,
  label: string,
  value: string,
): AskUserQuestionOption | undefined {
  const options = request.options ?? [];
  for (const option of options) if (option === chosen) return option;
  // A UI that rebuilt the option (from a wire message, say) still names the same one: values
  // are unique, and its label must be the same to a person.
  const option = options.find((candidate) => optionValue(candidate) === value);
  return option !== undefined && labelKey(option.label) === labelKey(label) ? option : undefined;
}

/**
 * Checks a UI's answer against the question it was given and returns a clean copy whose
 * `option` is the request's own object. Throws `INVALID_ANSWER`: a UI bug must never
 * reach the model as if the person had said it; `ASK_FAILED` when the answer cannot even be
 * read (a getter or a Proxy trap threw). Reads each field of the answer once.
 */
export function validateAnswer(
  request: AskUserQuestionRequest,
  answer: unknown,
): AskUserQuestionAnswer {
  if (typeof answer !== 'object' || answer === null) throw invalid('it is not an object');
  let text: unknown;
  let option: unknown;
  try {
    ({ answer: text, option } = answer as { answer?: unknown; option?: unknown });
  } catch (error) {
    throw unreadable(error);
  }
  if (typeof text !== 'string') throw invalid('`answer` is not a string');
  if (text.length > REQUEST_LIMITS.answerLength) {
    throw invalid(
      `\`answer\` is longer than ${REQUEST_LIMITS.answerLength} characters (it has ${text.length})`,
    );
  }
  if (isBlankText(text)) throw invalid('`answer` is blank');
  if (hasLoneSurrogate(text)) throw invalid('`answer` is not well-formed text');
  if (option === undefined) {
    if (!acceptsCustomAnswer(request))
      throw invalid('a typed answer, but the question only accepts its options');
    return { answer: text };
  }
  if (typeof option !== 'object' || option === null) throw invalid('`option` is not an option');
  let label: unknown;
  let value: unknown;
  try {
    ({ label, value } = option as { label?: unknown; value?: unknown });
  } catch (error) {
    throw unreadable(error);
  }
  if (typeof label !== 'string' || (value !== undefined && typeof value !== 'string')) {
    throw invalid('`option` is not an option');
  }
  const own = findOption(request, option, label, value ?? label);
  if (own === undefined) throw invalid("`option` is not one of the question's options");
  if (text !== optionValue(own)) throw invalid('`answer` is not the value of the chosen option');
  return { answer: text, option: own };
}
