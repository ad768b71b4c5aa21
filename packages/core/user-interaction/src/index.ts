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
export {
  ITEM_FIELD_NAMES,
  ITEM_FIELDS,
  OPTION_FIELD_NAMES,
  OPTION_FIELDS,
  QUESTION_FIELDS,
  QUESTIONS_FIELDS,
  QUESTIONS_REQUEST_FIELD_NAMES,
  type QuestionFieldDefinition,
  REQUEST_FIELD_NAMES,
} from './question-shape.js';
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
  ASK_USER_QUESTION_TOOL_DESCRIPTION,
  describeAskUserQuestionTool,
} from './tool/ask-user-question-description.js';
export {
  ASK_USER_QUESTION_ARGUMENT_FIELDS,
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
  questionsAnswerText,
} from './tool/execute-ask-user-question.js';
export {
  isQuestionsRequest,
  parseAskUserQuestionArguments,
} from './tool/parse-ask-user-question-arguments.js';
export {
  FULL_CAPABILITIES,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
} from './user-interaction-provider.js';
export { isBlankText } from './validation/is-blank-text.js';
export { labelKey } from './validation/label-key.js';
export { validateAnswer } from './validation/validate-answer.js';
export { validateAnswers } from './validation/validate-answers.js';
export {
  offeredChoices,
  PERMISSION_LIMITS,
  validatePermissionRequest,
} from './validation/validate-permission-request.js';
export { validateQuestionsRequest } from './validation/validate-questions-request.js';
export { validateRequest } from './validation/validate-request.js';
