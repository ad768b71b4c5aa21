import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  answerForOption,
  askCancelledError,
  invalidAnswerError,
} from 'dsh-user-interaction';
import { isRecord } from './is-record.js';
import { permissionOptionId } from './permission-request-for-question.js';

const OPTION_ID = /^option-(0|[1-9][0-9]{0,5})$/;

/**
 * Maps the client's `session/request_permission` reply, as received, back to the person's
 * answer: `selected` gives that option's answer, `cancelled` throws `ASK_CANCELLED`, and an
 * unknown option id or any other shape throws `INVALID_ANSWER`.
 */
export function answerFromPermission(
  request: AskUserQuestionRequest,
  response: unknown,
): AskUserQuestionAnswer {
  const outcome = isRecord(response) ? response.outcome : undefined;
  if (!isRecord(outcome)) throw invalidAnswerError('the reply has no outcome');
  if (outcome.outcome === 'cancelled') throw askCancelledError();
  if (outcome.outcome !== 'selected') {
    throw invalidAnswerError('the outcome is neither selected nor cancelled');
  }
  const { optionId } = outcome;
  const match = typeof optionId === 'string' ? OPTION_ID.exec(optionId) : null;
  const index = match === null ? -1 : Number(match[1]);
  const option = request.options?.[index];
  if (option === undefined || permissionOptionId(index) !== optionId) {
    throw invalidAnswerError("the selected option is not one of the question's options");
  }
  return answerForOption(option);
}
