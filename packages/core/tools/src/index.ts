export type { CommandAnalysis, CommandPart } from './policy/command/analyse-command.js';
export { analyseCommand } from './policy/lazy-analyse-command.js';
export {
  createPermissionPolicy,
  type ListedRule,
  type PermissionPolicyOptions,
  type PolicyMode,
  type RulesPermissionPolicy,
  type WorkspacePermissionPolicy,
} from './policy/permission-policy.js';
export { type PermissionRule, parseRule } from './policy/permission-rule.js';
export {
  type FileRuleSource,
  type FileRuleSourceOptions,
  fileRuleSource,
  type PermissionRuleSource,
  type RememberedRules,
} from './policy/rule-source.js';
export { userRulesPath, workspaceRulesPath } from './policy/rules-file.js';
export {
  type CommandEnvironmentOptions,
  commandEnvironment,
  withheldVariables,
} from './sandbox/command-environment.js';
export {
  type CommandSandbox,
  type CommandSandboxOptions,
  createCommandSandbox,
  HIDDEN_HOME_PATHS,
  READ_ONLY_IN_WORKSPACE,
  type SandboxChoice,
} from './sandbox/command-sandbox.js';
export { type SandboxPolicyOptions, sandboxPermissionPolicy } from './sandbox/sandbox-policy.js';
export {
  type ProbeSandboxOptions,
  probeSandbox,
  type SandboxStatus,
} from './sandbox/sandbox-status.js';
export { sandboxStatusLine } from './sandbox/sandbox-status-line.js';
export { rulesText } from './setup/rules-text.js';
export {
  createScratchFolder,
  type ScratchFolder,
  type WorkspaceAgentTools,
  type WorkspaceAgentToolsOptions,
  workspaceAgentTools,
} from './setup/workspace-agent-tools.js';
export {
  isWorkspaceToolError,
  TOOL_ERROR_CODES,
  WorkspaceToolError,
  type WorkspaceToolErrorCode,
} from './tool-error.js';
export {
  createWorkspaceTools,
  type WorkspaceToolsOptions,
} from './tools/create-workspace-tools.js';
export type { RunCommandToolOptions } from './tools/run-command-tool.js';
export {
  isInside,
  openWorkspace,
  type ResolvedPath,
  resolvePath,
  type Workspace,
  workspaceRelative,
} from './workspace/workspace.js';
