export {
  type AcpAgentServer,
  type AcpAgentServerOptions,
  serveAcpAgent,
} from './acp-agent-server.js';
export {
  type AcpClientConnection,
  type AcpQuestionProvider,
  type AcpQuestionProviderOptions,
  type ClientCapabilitiesSource,
  createAcpQuestionProvider,
} from './acp-question-provider.js';
export type { SessionAgentOptions } from './acp-session.js';
export { type AcpStdio, acpStdioStream } from './acp-stdio-stream.js';
export {
  textUpdate,
  thoughtUpdate,
  toolCallUpdate,
  toolResultUpdate,
} from './agent-event-updates.js';
export { packageAgentInfo } from './agent-info.js';
export { answerFromElicitation } from './answer-from-elicitation.js';
export { answerFromPermission } from './answer-from-permission.js';
export { errorFromClient } from './client-error.js';
export { elicitationForQuestion, formSchemaForQuestion } from './elicitation-for-question.js';
export {
  AGENT_CAPABILITIES,
  initializeResponse,
  negotiateProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './initialize-response.js';
export { logText } from './log-text.js';
export {
  type PermissionScope,
  permissionOptionId,
  permissionRequestForQuestion,
} from './permission-request-for-question.js';
export { promptResponseFor } from './prompt-response.js';
export { promptText } from './prompt-text.js';
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
export { routeConsoleToStderr } from './route-console-to-stderr.js';
export { createStderrLog } from './stderr-log.js';
export { questionCapabilitiesFor, supportsFormElicitation } from './supports-form-elicitation.js';
