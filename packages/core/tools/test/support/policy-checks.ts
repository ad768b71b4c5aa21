import { join } from 'node:path';
import type { PermissionCheck, ToolCallDescription } from 'dsh-agent';
import type { Workspace } from '../../src/index.js';

/** What the policy is asked for `run_command` of `command`, as the tool describes it. */
export function commandCheck(workspace: Workspace, command: string): PermissionCheck {
  const description: ToolCallDescription = {
    kind: 'execute',
    command: { command, cwd: workspace.root },
    locations: [{ path: workspace.root }],
  };
  return { toolName: 'run_command', args: { command }, description };
}

/** What the policy is asked for `tool` on `path` (relative to the workspace, or absolute). */
export function fileCheck(
  workspace: Workspace,
  tool: string,
  path: string,
  kind: ToolCallDescription['kind'] = 'edit',
): PermissionCheck {
  const absolute = path.startsWith('/') ? path : join(workspace.root, path);
  return { toolName: tool, args: { path }, description: { kind, locations: [{ path: absolute }] } };
}
