export {
  type AnswerElicitationsOptions,
  answerElicitations,
  type ElicitationAnswering,
  type ElicitationCallContext,
  type ElicitationInteraction,
  type ElicitationRecord,
} from './elicitation/answer-elicitations.js';
export { isSensitiveName } from './elicitation/form-field.js';
export { isPunycodeHost } from './elicitation/url-consent.js';
export { isMcpError, MCP_ERROR_CODES, McpError, type McpErrorCode } from './mcp-error.js';
