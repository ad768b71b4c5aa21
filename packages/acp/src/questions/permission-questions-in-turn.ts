import { randomUUID } from 'node:crypto';
import {
  methods,
  type RequestPermissionRequest,
  type SendRequestOptions,
} from '@agentclientprotocol/sdk';
import type {
  AskUserQuestionItem,
  AskUserQuestionRequest,
  AskUserQuestionsAnswer,
  AskUserQuestionsRequest,
} from 'dsh-user-interaction';
import { askEachInTurn } from 'dsh-user-interaction/in-turn';
import { answerFromPermission } from './answer-from-permission.js';
import { checkOutgoingRequestSize } from './outgoing-request-size.js';
import { permissionRequestForQuestion } from './permission-request-for-question.js';
import type { QuestionScope } from './question-scope.js';
import type { SendWithdrawable } from './send-withdrawable.js';

/** Sends one `session/request_permission` to the client. */
type RequestPermission = (
  params: RequestPermissionRequest,
  options: SendRequestOptions,
) => Promise<unknown>;

/** One question of several, as the one question a permission request shows. */
function single(item: AskUserQuestionItem): AskUserQuestionRequest {
  return { question: item.question, options: item.options ?? [], allowCustom: false };
}

/**
 * Several questions for a client without form elicitation: each a `session/request_permission`
 * on the asking tool call, one after another, the first refusal (`cancelled`) failing them all.
 * The caller has refused what a permission request cannot show (the contract's `refusalFor`);
 * throws `INVALID_REQUEST`, before anything is sent, for a question whose request would be over
 * the message size limit.
 */
export function permissionQuestionsInTurn(
  request: AskUserQuestionsRequest,
  scope: QuestionScope,
  requestPermission: RequestPermission,
): { show(send: SendWithdrawable): Promise<AskUserQuestionsAnswer> } {
  // A permission request must name a tool call; clients show an unknown one as a new entry.
  const target = {
    sessionId: scope.sessionId,
    toolCallId: scope.toolCallId ?? `question-${randomUUID()}`,
  };
  const shown = request.questions.map((item, index) => {
    const question = single(item);
    const params = permissionRequestForQuestion(question, target);
    checkOutgoingRequestSize(
      methods.client.session.requestPermission,
      params,
      `questions[${index}].options`,
      'a permission request',
      'offer fewer options, or shorter labels',
    );
    return { question, params };
  });
  return {
    // The contract's rule for a set shown one question at a time; what differs is only how
    // one is shown (a permission request) and read back (`cancelled` refuses them all).
    show: (send) =>
      askEachInTurn(request, async (_item, index) => {
        const { question, params } = shown[index] as (typeof shown)[number];
        return answerFromPermission(
          question,
          await send((options) => requestPermission(params, options)),
        );
      }),
  };
}
