export { analyseCommand, type CommandAnalysis, type CommandPart } from './policy/command-parts.js';
export {
  createPermissionPolicy,
  type ListedRule,
  type PermissionPolicyOptions,
  type PolicyMode,
  type WorkspacePermissionPolicy,
} from './policy/permission-policy.js';
export { type PermissionRule, parseRule } from './policy/permission-rule.js';
export { userRulesPath, workspaceRulesPath } from './policy/rules-file.js';
export {
  isWorkspaceToolError,
  TOOL_ERROR_CODES,
  WorkspaceToolError,
  type WorkspaceToolErrorCode,
} from './tool-error.js';
export {
  isInside,
  openWorkspace,
  type ResolvedPath,
  resolvePath,
  type Workspace,
  workspaceRelative,
} from './workspace/workspace.js';
