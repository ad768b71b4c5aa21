import type { AskUserQuestionRequest } from '../ask-user-question.js';
import type {
  AskUserQuestionItem,
  AskUserQuestionsAnswer,
  AskUserQuestionsRequest,
} from '../ask-user-questions.js';
import type { UserInteractionProvider } from '../user-interaction-provider.js';
import { validateAnswer } from '../validation/validate-answer.js';
import type { Mutable } from '../validation/validate-request.js';
import { askEachInTurn } from './ask-each-in-turn.js';

/** Calls `ask` or `askAll`; whatever it does (throws, returns a broken thenable) becomes a promise. */
export function callProvider<Request>(
  call: (request: Request) => unknown,
  request: Request,
): Promise<unknown> {
  try {
    return Promise.resolve(call(request));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** One question of several as a question of its own, with the set's caller fields. */
function singleQuestion(
  item: AskUserQuestionItem,
  request: AskUserQuestionsRequest,
): AskUserQuestionRequest {
  const single: Mutable<AskUserQuestionRequest> = { question: item.question };
  if (item.header !== undefined) single.header = item.header;
  if (item.options !== undefined) single.options = item.options;
  if (item.allowCustom !== undefined) single.allowCustom = item.allowCustom;
  if (request.agent !== undefined) single.agent = request.agent;
  // The set's signal also carries its time limit: each question gets what is left of it.
  if (request.signal !== undefined) single.signal = request.signal;
  return Object.freeze(single);
}

/**
 * Asks several questions through a provider that shows one at a time: each through `ask`, its
 * answer checked as `ask()` checks one (see `askEachInTurn`).
 */
export function askProviderEachInTurn(
  provider: UserInteractionProvider,
  request: AskUserQuestionsRequest,
  stopped: () => boolean,
): Promise<AskUserQuestionsAnswer> {
  return askEachInTurn(
    request,
    async (item) => {
      const single = singleQuestion(item, request);
      return validateAnswer(single, await callProvider((shown) => provider.ask(shown), single));
    },
    stopped,
  );
}
