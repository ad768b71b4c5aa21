// `dsh-acp`: questions and approvals as ACP requests, for an ACP agent of your own, and the stdio
// framing an ACP agent serves on. It loads no agent loop: the dsh agent server is `dsh-acp/server`.
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
export { elicitationForQuestion } from './questions/elicitation-for-question.js';
export { elicitationForQuestions } from './questions/elicitation-for-questions.js';
export {
  type PermissionScope,
  permissionRequestForQuestion,
} from './questions/permission-request-for-question.js';
export type {
  ChoiceFieldSchema,
  ChoiceSchemaOption,
  QuestionElicitationRequest,
  QuestionFormField,
  QuestionFormSchema,
  TextFieldSchema,
} from './questions/question-form.js';
export type { QuestionScope } from './questions/question-scope.js';
export type {
  CustomAnswerSchema,
  QuestionChoiceSchema,
  QuestionMultiChoiceSchema,
  QuestionsElicitationRequest,
  QuestionsFormProperty,
  QuestionsFormSchema,
  QuestionTextSchema,
} from './questions/questions-form.js';
export { supportsFormElicitation } from './questions/supports-form-elicitation.js';
export type { UrlQuestion, UrlQuestionAction } from './questions/url-elicitation.js';
export { type AcpStdio, acpStdioStream } from './stdio/acp-stdio-stream.js';
export { routeConsoleToStderr } from './stdio/route-console-to-stderr.js';
export { createStderrLog } from './stdio/stderr-log.js';
