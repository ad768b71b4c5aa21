export { packageAgentInfo } from './agent-info.js';
export {
  type AcpClientConnection,
  type AcpQuestionProvider,
  type AcpQuestionProviderOptions,
  type ClientCapabilitiesSource,
  createAcpQuestionProvider,
} from './questions/acp-question-provider.js';
export { answerFromElicitation } from './questions/answer-from-elicitation.js';
export { answerFromPermission } from './questions/answer-from-permission.js';
export { answersFromElicitation } from './questions/answers-from-elicitation.js';
export { errorFromClient } from './questions/client-error.js';
export {
  elicitationForQuestion,
  formSchemaForQuestion,
} from './questions/elicitation-for-question.js';
export {
  customAnswerField,
  elicitationForQuestions,
  formSchemaForQuestions,
} from './questions/elicitation-for-questions.js';
export {
  type PermissionScope,
  permissionOptionId,
  permissionRequestForQuestion,
} from './questions/permission-request-for-question.js';
export {
  type ChoiceFieldSchema,
  type ChoiceSchemaOption,
  QUESTION_FORM_FIELDS,
  QUESTION_FORM_WORDING,
  type QuestionElicitationRequest,
  type QuestionFormField,
  type QuestionFormSchema,
  type TextFieldSchema,
} from './questions/question-form.js';
export type { QuestionScope } from './questions/question-scope.js';
export {
  CUSTOM_ANSWER_META,
  CUSTOM_ANSWER_SUFFIX,
  type CustomAnswerSchema,
  QUESTIONS_FORM_WORDING,
  type QuestionChoiceSchema,
  type QuestionMultiChoiceSchema,
  type QuestionsElicitationRequest,
  type QuestionsFormProperty,
  type QuestionsFormSchema,
  type QuestionTextSchema,
} from './questions/questions-form.js';
export {
  questionCapabilitiesFor,
  supportsFormElicitation,
} from './questions/supports-form-elicitation.js';
export {
  type AcpAgentServer,
  type AcpAgentServerOptions,
  type SessionTools,
  serveAcpAgent,
} from './server/acp-agent-server.js';
export type { SessionAgentOptions } from './server/acp-session.js';
export {
  retryNotice,
  textUpdate,
  thoughtUpdate,
  toolCallUpdate,
  toolResultUpdate,
} from './server/agent-event-updates.js';
export {
  AGENT_CAPABILITIES,
  initializeResponse,
  negotiateProtocolVersion,
  SAVED_SESSIONS_CAPABILITIES,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './server/initialize-response.js';
export { promptResponseFor } from './server/prompt-response.js';
export { promptText } from './server/prompt-text.js';
export { SESSION_LIST_PAGE_SIZE, sessionListPage } from './server/session-list-page.js';
export { supportsNotices } from './server/supports-notices.js';
export { type AcpStdio, acpStdioStream } from './stdio/acp-stdio-stream.js';
export { logText } from './stdio/log-text.js';
export { routeConsoleToStderr } from './stdio/route-console-to-stderr.js';
export { createStderrLog } from './stdio/stderr-log.js';
