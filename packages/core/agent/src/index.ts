export {
  AGENT_ERROR_CODES,
  AgentError,
  type AgentErrorCode,
  isAgentError,
} from './loop/agent-error.js';
export type { AgentEvent, TurnEndEvent, TurnEndReason } from './loop/agent-event.js';
// The tool port (`AgentTool`, `ToolContext`, `ToolResult`, `PermissionPolicy`…): the contract's,
// named in `dsh-user-interaction/agent-tool`.
export type * from './loop/agent-tool.js';
export { createAskUserQuestionAgentTool } from './loop/ask-user-question-agent-tool.js';
export type { ConversationEntry, ConversationRecorder } from './loop/conversation-entry.js';
export {
  type AgentOptions,
  type ChatAgent,
  checkAgentOptions,
  createAgent,
  DEFAULT_MAX_STEPS,
  type RunOptions,
} from './loop/create-agent.js';
export { DEFAULT_INSTRUCTIONS } from './loop/default-instructions.js';
export {
  ASK_EVERY_CALL,
  type PermissionCheck,
  type PermissionPolicy,
  type PermissionVerdict,
} from './loop/permission-policy.js';
export {
  type ReplayEvent,
  type ReplayOptions,
  replayConversation,
} from './loop/replay-conversation.js';
export { type ToolCallAgent, toolCallIdOf } from './loop/tool-call-agent.js';
export { errorResult } from './loop/tool-call-runner.js';
export { API_KEY_VARIABLES, type ApiKeyVariable } from './models/api-key-variables.js';
export { DEEPSEEK_MODELS } from './models/deepseek.js';
export type {
  Model,
  ModelEvent,
  ModelFinishReason,
  ModelMessage,
  ModelReasoning,
  ModelRequest,
  ModelToolCall,
  ModelToolSchema,
  RetryEvent,
} from './models/model.js';
export {
  isModelError,
  MODEL_ERROR_CODES,
  ModelError,
  type ModelErrorCode,
  type ModelErrorOptions,
} from './models/model-error.js';
export { createOpenAICompatibleModel } from './models/openai-compatible-model.js';
export type { OpenAICompatibleModelOptions } from './models/openai-compatible-model-options.js';
export type { ThinkingLevel } from './models/thinking.js';
export { DEMO_SCRIPT } from './script/demo-script.js';
export { loadScript } from './script/load-script.js';
export type {
  Script,
  ScriptStep,
  ScriptToolCall,
} from './script/script.js';
export { createScriptedModel, type ScriptedModelOptions } from './script/scripted-model.js';
export { validateScript } from './script/validate-script.js';
export { compareSessionInfos, type SessionInfo } from './session/list-session-files.js';
export {
  isSessionError,
  SESSION_ERROR_CODES,
  SessionError,
  type SessionErrorCode,
} from './session/session-error.js';
export type { SessionHeader } from './session/session-line.js';
export {
  type ListSessionsOptions,
  openSessionStore,
  type SessionStore,
  type SessionStoreOptions,
} from './session/session-store.js';
export { defaultStateDir } from './session/state-dir.js';
export type { StoredSession } from './session/stored-session.js';
export { formatDuration } from './text/format-duration.js';
