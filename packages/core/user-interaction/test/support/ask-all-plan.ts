import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  type AskUserQuestionsRequest,
  createUserInteraction,
  type UserInteractionProvider,
} from '../../src/index.js';
import { createScriptedProvider } from '../../src/testing.js';
import { FEATURES_QUESTION } from './features-question.js';

// The plan of three questions the `askAll` tests ask, and the two kinds of UI they ask it through.

export const LANGUAGE = {
  id: 'language',
  question: 'Which language?',
  header: 'Language',
  options: [{ label: 'TypeScript', recommended: true }, { label: 'Go' }],
  allowCustom: false,
};
export const NAME = { id: 'name', question: 'What should it be called?' };
export const FEATURES = {
  ...FEATURES_QUESTION,
  options: [...FEATURES_QUESTION.options, { label: 'Docs', value: 'docs' }],
  multiSelect: true,
};
export const PLAN: AskUserQuestionsRequest = {
  header: 'Plan',
  questions: [LANGUAGE, NAME, FEATURES],
};

/** A service whose UI is a scripted provider that shows several questions at once. */
export function withScripted(...answers: Parameters<typeof createScriptedProvider>[0][]) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider(answers[0]);
  interaction.registerProvider(provider);
  return { interaction, provider };
}

/** A provider that shows one question at a time: it has no `askAll`. */
export function oneAtATime(
  replies: ((request: AskUserQuestionRequest) => Promise<AskUserQuestionAnswer>)[],
) {
  const seen: AskUserQuestionRequest[] = [];
  const provider: UserInteractionProvider = {
    ask(request) {
      seen.push(request);
      const next = replies.shift();
      if (next === undefined) throw new Error('no reply');
      return next(request);
    },
  };
  return { provider, seen };
}
