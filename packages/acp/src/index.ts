export {
  type AcpClientConnection,
  type AcpQuestionProvider,
  type AcpQuestionProviderOptions,
  type ClientCapabilitiesSource,
  createAcpQuestionProvider,
} from './acp-question-provider.js';
export { answerFromElicitation } from './answer-from-elicitation.js';
export { answerFromPermission } from './answer-from-permission.js';
export { errorFromClient } from './client-error.js';
export { elicitationForQuestion, formSchemaForQuestion } from './elicitation-for-question.js';
export {
  type PermissionScope,
  permissionOptionId,
  permissionRequestForQuestion,
} from './permission-request-for-question.js';
export {
  type ChoiceFieldSchema,
  type ChoiceSchemaOption,
  QUESTION_FORM_FIELDS,
  QUESTION_FORM_WORDING,
  type QuestionElicitationRequest,
  type QuestionFormField,
  type QuestionFormSchema,
  type TextFieldSchema,
} from './question-form.js';
export type { QuestionScope } from './question-scope.js';
export { questionCapabilitiesFor, supportsFormElicitation } from './supports-form-elicitation.js';
