export type { Agent } from './agent.js';
export type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionRequest,
} from './ask-user-question.js';
export {
  askAbortedError,
  askCancelledError,
  askDeclinedError,
  askFailedError,
  askTimeoutError,
  duplicateProviderError,
  inputClosedError,
  invalidAnswerError,
  invalidRequestError,
  noProviderError,
  toUserInteractionError,
  unsupportedError,
} from './errors/ask-errors.js';
export {
  HarnessError,
  INTERNAL_ERROR_CODE,
  isHarnessError,
  type ToolError,
  toToolError,
} from './errors/harness-error.js';
export {
  isUserInteractionError,
  isUserInteractionErrorCode,
  USER_INTERACTION_ERROR_CODES,
  UserInteractionError,
  type UserInteractionErrorCode,
  type UserInteractionErrorOptions,
} from './errors/user-interaction-error.js';
export {
  acceptsCustomAnswer,
  answerForOption,
  hasOptions,
  optionValue,
  recommendedOption,
} from './question-helpers.js';
export { REQUEST_LIMITS } from './request-limits.js';
export {
  createUserInteraction,
  type ProviderRegistration,
  type RegisterProviderOptions,
  type UserInteraction,
  type UserInteractionOptions,
} from './service/create-user-interaction.js';
export {
  createPendingQuestion,
  type PendingQuestion,
  type PendingQuestionOptions,
  PendingQuestions,
  withdrawnBy,
} from './service/pending-question.js';
export {
  ASK_USER_QUESTION_PARAMETERS,
  ASK_USER_QUESTION_TOOL_DESCRIPTION,
  ASK_USER_QUESTION_TOOL_NAME,
  type AskUserQuestionToolContext,
  type AskUserQuestionToolResult,
  askUserQuestionTool,
  describeAskUserQuestionTool,
  executeAskUserQuestion,
  parseAskUserQuestionArguments,
} from './tool/ask-user-question-tool.js';
export {
  FULL_CAPABILITIES,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
} from './user-interaction-provider.js';
export { isBlankText } from './validation/is-blank-text.js';
export { labelKey } from './validation/label-key.js';
export { validateAnswer } from './validation/validate-answer.js';
export { validateRequest } from './validation/validate-request.js';
