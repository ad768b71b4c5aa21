export type { Agent } from './agent.js';
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
  offeredChoices,
  PERMISSION_CHOICES,
  PERMISSION_KINDS,
  type PermissionAnswer,
  type PermissionChoice,
  type PermissionCommand,
  type PermissionDecider,
  type PermissionEdit,
  type PermissionKind,
  type PermissionOutcome,
  type PermissionRequest,
  type PermissionRuleScope,
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
export {
  createUserInteraction,
  type ProviderRegistration,
  type RegisterProviderOptions,
  type UserInteraction,
  type UserInteractionOptions,
} from './service/create-user-interaction.js';
export {
  type PendingQuestion,
  type PendingQuestionOptions,
  PendingQuestions,
} from './service/pending-question.js';
export { type RefusalWording, refusalFor } from './service/provider-refusal.js';
export { describeAskUserQuestionTool } from './tool/ask-user-question-description.js';
export {
  ASK_USER_QUESTION_PARAMETERS,
  type BooleanSchema,
  type ObjectSchema,
  type OptionsSchema,
  type PropertiesOf,
  type QuestionsSchema,
  type StringSchema,
} from './tool/ask-user-question-schema.js';
export { ASK_USER_QUESTION_TOOL_NAME, askUserQuestionTool } from './tool/ask-user-question-tool.js';
export {
  type AskUserQuestionToolContext,
  type AskUserQuestionToolResult,
  executeAskUserQuestion,
} from './tool/execute-ask-user-question.js';
export { parseAskUserQuestionArguments } from './tool/parse-ask-user-question-arguments.js';
export {
  FULL_CAPABILITIES,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
} from './user-interaction-provider.js';
export { isBlankText } from './validation/is-blank-text.js';
export { validateAnswer } from './validation/validate-answer.js';
export { validateAnswers } from './validation/validate-answers.js';
export { validateQuestionsRequest } from './validation/validate-questions-request.js';
export { validateRequest } from './validation/validate-request.js';
