export type { Agent } from './agent.js';
export {
  HarnessError,
  type HarnessErrorGuard,
  INTERNAL_ERROR_CODE,
  isHarnessError,
  type ToolError,
  toToolError,
} from './errors/harness-error.js';
export {
  isUserInteractionErrorCode,
  USER_INTERACTION_ERROR_CODES,
  type UserInteractionErrorCode,
  type UserInteractionErrorOptions,
} from './errors/user-interaction-error.js';
export {
  PERMISSION_CHOICES,
  PERMISSION_KINDS,
  type PermissionCommand,
  type PermissionDecider,
  type PermissionEdit,
  type PermissionKind,
  type PermissionMode,
  type PermissionOutcome,
  type PermissionRuleScope,
  type PermissionSandbox,
  type SandboxConfinement,
} from './permission-request.js';
export * from './provider.js';
export {
  createUserInteraction,
  type ProviderRegistration,
  type RegisterProviderOptions,
  type UserInteraction,
  type UserInteractionOptions,
} from './service/create-user-interaction.js';
export type { PendingQuestionOptions } from './service/pending-question.js';
export type { RefusalWording } from './service/provider-refusal.js';
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
export { validateAnswer } from './validation/validate-answer.js';
export { validateAnswers } from './validation/validate-answers.js';
export { validateQuestionsRequest } from './validation/validate-questions-request.js';
export { validateRequest } from './validation/validate-request.js';
