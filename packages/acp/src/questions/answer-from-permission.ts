import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  answerForOption,
  invalidAnswerError,
} from 'dsh-user-interaction';
import { selectedOptionId } from '../permissions/selected-option-id.js';
import { permissionOptionId } from './permission-request-for-question.js';

const OPTION_ID = /^option-(0|[1-9][0-9]{0,5})$/;

/**
 * Maps the client's `session/request_permission` reply, as received, back to the person's
 * answer: `selected` gives that option's answer, `cancelled` throws `ASK_CANCELLED`, and an
 * unknown option id or any other shape (see `selectedOptionId`) throws `INVALID_ANSWER`.
 */
export function answerFromPermission(
  request: AskUserQuestionRequest,
  response: unknown,
): AskUserQuestionAnswer {
  const optionId = selectedOptionId(response);
  const match = OPTION_ID.exec(optionId);
  const index = match === null ? -1 : Number(match[1]);
  const option = request.options?.[index];
  if (option === undefined || permissionOptionId(index) !== optionId) {
    throw invalidAnswerError("the selected option is not one of the question's options");
  }
  return answerForOption(option);
}
