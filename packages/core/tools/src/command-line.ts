// `dsh-tools/command-line`: what the two programs do with the permission flags of
// `dsh-agent/command-line` (the rules checked, `--permissions` listed, the workspace opened under
// them), for a program of your own built the same way. The tools themselves are the root's.
export {
  commandWorkspaceTools,
  type PermissionFlagsOptions,
  permissionFlagsStatus,
  type WorkspaceProblemOptions,
  workspaceProblemStatus,
} from './setup/command-workspace.js';
export { type DemoWorkspace, demoWorkspaceTools } from './setup/demo-workspace.js';
