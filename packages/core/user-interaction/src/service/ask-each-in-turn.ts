// By the package's own name, not '../question-helpers.js': the in-turn subpath then shares no
// module with the provider subpath, which stays one chunk of its own (test/public-surface.test.ts).
import { answerForItem } from 'dsh-user-interaction/provider';
import type { AskUserQuestionAnswer } from '../ask-user-question.js';
import type {
  AskUserQuestionItem,
  AskUserQuestionItemAnswer,
  AskUserQuestionsAnswer,
  AskUserQuestionsRequest,
} from '../ask-user-questions.js';

/**
 * Asks several questions one at a time, in order: `askOne` shows one and returns its answer,
 * which becomes that question's answer in the set. The first failure (a decline, a cancel)
 * fails the whole set, and nothing more is asked once `stopped()` says the set has settled.
 * For a UI that cannot show a set at once (a provider without `askAll`, an ACP client without
 * form elicitation).
 */
export async function askEachInTurn(
  request: Pick<AskUserQuestionsRequest, 'questions'>,
  askOne: (item: AskUserQuestionItem, index: number) => Promise<AskUserQuestionAnswer>,
  stopped: () => boolean = () => false,
): Promise<AskUserQuestionsAnswer> {
  const answers: AskUserQuestionItemAnswer[] = [];
  for (const [index, item] of request.questions.entries()) {
    if (stopped()) break;
    const answer = await askOne(item, index);
    answers.push(
      answer.option === undefined
        ? answerForItem(item, [], answer.answer)
        : answerForItem(item, [answer.option]),
    );
  }
  return { answers };
}
