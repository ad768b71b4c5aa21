export {
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  type ReadMcpConfigOptions,
  readMcpConfig,
} from './config/read-mcp-config.js';
export {
  type ConnectMcpServerOptions,
  connectMcpServer,
  connectMcpServers,
  type McpServerConnection,
  type McpServersStatus,
} from './connect-mcp-server.js';
export {
  type AnswerElicitationsOptions,
  answerElicitations,
  type ElicitationAnswering,
  type ElicitationCallContext,
  type ElicitationInteraction,
  type ElicitationRecord,
} from './elicitation/answer-elicitations.js';
export type { AskUrl, UrlElicitationRequest } from './elicitation/answer-url.js';
export { isSensitiveName } from './elicitation/form-field.js';
export { isPunycodeHost } from './elicitation/url-consent.js';
export { isMcpError, MCP_ERROR_CODES, McpError, type McpErrorCode } from './mcp-error.js';
export {
  type DecideMcpCallOptions,
  decideMcpCall,
  type McpCallDecision,
  type McpRules,
} from './rules/decide-mcp-call.js';
export {
  asMcpRulesFile,
  type McpPermissionCheck,
  type McpPermissionPolicy,
  type McpPermissionVerdict,
  type McpRulesFile,
  type WithMcpRulesOptions,
  withMcpRules,
} from './rules/mcp-permission-policy.js';
export {
  type McpRule,
  type McpRuleTarget,
  parseMcpRule,
  pinnedRule,
  serverRule,
  toolRule,
} from './rules/mcp-rule.js';
export { type DigestedTool, toolDigest } from './rules/tool-digest.js';
export { trustedServerNames } from './rules/trusted-servers.js';
export { agentToolName } from './tools/agent-tool-name.js';
export type {
  McpAgentTool,
  McpToolCallDescription,
  McpToolContext,
  McpToolResult,
} from './tools/mcp-agent-tool.js';
export {
  createMcpToolSet,
  DEFAULT_IDLE_TIMEOUT_MS,
  type McpToolInfo,
  type McpToolSet,
  type McpToolSetOptions,
} from './tools/mcp-tool-set.js';
