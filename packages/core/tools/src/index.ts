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
