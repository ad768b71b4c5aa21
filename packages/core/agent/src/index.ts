export {
  type AgentCommand,
  type AgentCommandLineOptions,
  parseAgentCommandLine,
  parseDuration,
  UsageError,
} from './agent-command-line.js';
export {
  AGENT_ERROR_CODES,
  AgentError,
  type AgentErrorCode,
  isAgentError,
} from './agent-error.js';
export type { AgentEvent, TurnEndEvent, TurnEndReason } from './agent-event.js';
export type {
  AgentInteraction,
  AgentTool,
  ToolContext,
  ToolDescriptionContext,
  ToolQuestion,
  ToolResult,
} from './agent-tool.js';
export { createAskUserQuestionAgentTool } from './ask-user-question-agent-tool.js';
export {
  type AgentOptions,
  type ChatAgent,
  createAgent,
  DEFAULT_MAX_STEPS,
  type RunOptions,
} from './create-agent.js';
export {
  DEEPSEEK_BASE_URL,
  DEEPSEEK_MODEL,
  DEEPSEEK_MODELS,
  speaksDeepSeek,
} from './deepseek.js';
export { DEFAULT_INSTRUCTIONS } from './default-instructions.js';
export { DEMO_SCRIPT } from './demo-script.js';
export { loadScript } from './load-script.js';
export type {
  Model,
  ModelEvent,
  ModelFinishReason,
  ModelMessage,
  ModelReasoning,
  ModelRequest,
  ModelToolCall,
  ModelToolSchema,
} from './model.js';
export {
  isModelError,
  MODEL_ERROR_CODES,
  ModelError,
  type ModelErrorCode,
  type ModelErrorOptions,
} from './model-error.js';
export {
  createOpenAICompatibleModel,
  NO_API_KEY,
  type OpenAICompatibleModelOptions,
} from './openai-compatible-model.js';
export {
  DEMO_DESCRIPTION,
  type ResolvedModel,
  type ResolveModelOptions,
  resolveModel,
} from './resolve-model.js';
export {
  DEFAULT_SCRIPT_END,
  type Script,
  type ScriptStep,
  type ScriptToolCall,
} from './script.js';
export { createScriptedModel, type ScriptedModelOptions } from './scripted-model.js';
export { isThinkingLevel, THINKING_LEVELS, type ThinkingLevel } from './thinking.js';
export { type ToolCallAgent, toolCallIdOf } from './tool-call-agent.js';
export { errorResult } from './tool-call-runner.js';
export { validateScript } from './validate-script.js';
