export type { Agent } from './agent.js';
export type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionRequest,
} from './ask-user-question.js';
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
} from './ask-user-question-tool.js';
export {
  createUserInteraction,
  type ProviderRegistration,
  type RegisterProviderOptions,
  type UserInteraction,
  type UserInteractionOptions,
} from './create-user-interaction.js';
export {
  HarnessError,
  INTERNAL_ERROR_CODE,
  isHarnessError,
  type ToolError,
  toToolError,
} from './harness-error.js';
export { isBlankText } from './is-blank-text.js';
export { labelKey } from './label-key.js';
export {
  acceptsCustomAnswer,
  answerForOption,
  hasOptions,
  optionValue,
  recommendedOption,
} from './question-helpers.js';
export { REQUEST_LIMITS } from './request-limits.js';
export {
  isUserInteractionError,
  isUserInteractionErrorCode,
  USER_INTERACTION_ERROR_CODES,
  UserInteractionError,
  type UserInteractionErrorCode,
  type UserInteractionErrorOptions,
} from './user-interaction-error.js';
export type {
  UserInteractionCapabilities,
  UserInteractionProvider,
} from './user-interaction-provider.js';
export { validateAnswer } from './validate-answer.js';
export { validateRequest } from './validate-request.js';
