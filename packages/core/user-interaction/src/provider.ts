// For a UI provider's author: what a provider needs to answer a question or an approval, and
// nothing of the service or the tool. The root exports the same names (it re-exports this
// file); importing this subpath instead loads a fraction of the package (a terminal UI's
// start-up pays for what it imports).
export type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionRequest,
} from './ask-user-question.js';
export type {
  AskUserQuestionItem,
  AskUserQuestionItemAnswer,
  AskUserQuestionsAnswer,
  AskUserQuestionsRequest,
} from './ask-user-questions.js';
export {
  askCancelledError,
  askDeclinedError,
  askFailedError,
  inputClosedError,
  invalidAnswerError,
  invalidRequestError,
  unsupportedError,
} from './errors/ask-errors.js';
export { isUserInteractionError, UserInteractionError } from './errors/user-interaction-error.js';
export {
  offeredChoices,
  type PermissionAnswer,
  type PermissionChoice,
  type PermissionRequest,
} from './permission-request.js';
export {
  acceptsCustomAnswer,
  answerForItem,
  answerForOption,
  hasOptions,
  optionValue,
  recommendedOption,
} from './question-helpers.js';
export { REQUEST_LIMITS } from './request-limits.js';
export { type PendingQuestion, PendingQuestions } from './service/pending-question.js';
export { refusalFor } from './service/provider-refusal.js';
export {
  type InertTextLevel,
  type InertTextOptions,
  inertText,
} from './text/inert-text.js';
export { timeLimitSentence } from './text/time-limit-sentence.js';
export {
  FULL_CAPABILITIES,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
} from './user-interaction-provider.js';
export { isBlankText } from './validation/is-blank-text.js';
