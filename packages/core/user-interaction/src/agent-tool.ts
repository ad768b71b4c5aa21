// `dsh-user-interaction/agent-tool`: the port between an agent loop and its tools (types only).
// A tool implements `AgentTool`; a permission policy implements `PermissionPolicy`. `dsh-agent`
// runs them, `dsh-tools` and `dsh-mcp` provide them, and neither needs the other to do so.
export type {
  AgentInteraction,
  AgentTool,
  ToolCallDescription,
  ToolCallLocation,
  ToolContext,
  ToolDescribeContext,
  ToolDescriptionContext,
  ToolQuestion,
  ToolResult,
  ToolResultDetails,
} from './agent-tool/agent-tool.js';
export type {
  PermissionCheck,
  PermissionPolicy,
  PermissionVerdict,
} from './agent-tool/permission-policy.js';
export type { ToolCallAgent } from './agent-tool/tool-call-agent.js';
