import type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionRequest,
} from './ask-user-question.js';
import { isBlankText } from './is-blank-text.js';
import { acceptsCustomAnswer, optionValue } from './question-helpers.js';
import { UserInteractionError } from './user-interaction-error.js';

function invalid(problem: string): UserInteractionError {
  return new UserInteractionError(
    'INVALID_ANSWER',
    `The UI returned an answer that does not fit the question: ${problem}.`,
  );
}

function findOption(
  request: AskUserQuestionRequest,
  chosen: AskUserQuestionOption,
): AskUserQuestionOption | undefined {
  const options = request.options ?? [];
  for (const option of options) if (option === chosen) return option;
  // A UI that rebuilt the option (from a wire message, say) still names the same one.
  for (const option of options) {
    if (option.label === chosen.label && optionValue(option) === optionValue(chosen)) return option;
  }
  return undefined;
}

/**
 * Checks a UI's answer against the question it was given and returns a clean copy whose
 * `option` is the request's own object. Throws `INVALID_ANSWER`: a UI bug must never
 * reach the model as if the person had said it.
 */
export function validateAnswer(
  request: AskUserQuestionRequest,
  answer: unknown,
): AskUserQuestionAnswer {
  if (typeof answer !== 'object' || answer === null) throw invalid('it is not an object');
  const { answer: text, option } = answer as { answer?: unknown; option?: unknown };
  if (typeof text !== 'string') throw invalid('`answer` is not a string');
  if (isBlankText(text)) throw invalid('`answer` is blank');
  if (option === undefined) {
    if (!acceptsCustomAnswer(request))
      throw invalid('a typed answer, but the question only accepts its options');
    return { answer: text };
  }
  if (
    typeof option !== 'object' ||
    option === null ||
    typeof (option as AskUserQuestionOption).label !== 'string'
  ) {
    throw invalid('`option` is not an option');
  }
  const own = findOption(request, option as AskUserQuestionOption);
  if (own === undefined) throw invalid("`option` is not one of the question's options");
  if (text !== optionValue(own)) throw invalid('`answer` is not the value of the chosen option');
  return { answer: text, option: own };
}
