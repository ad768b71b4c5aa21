import type { AgentTool } from 'dsh-user-interaction/agent-tool';
import type { CommandSandbox } from '../sandbox/command-sandbox.js';
import type { Workspace } from '../workspace/workspace.js';
import { createEditFileTool } from './edit-file-tool.js';
import { createListFilesTool } from './list-files-tool.js';
import { createReadFileTool } from './read-file-tool.js';
import { createRunCommandTool } from './run-command-tool.js';
import { createSearchTool } from './search-tool.js';
import { createWriteFileTool } from './write-file-tool.js';

/** Options of `createWorkspaceTools`. */
export interface WorkspaceToolsOptions {
  /** The folder the tools work in (see `openWorkspace`). */
  readonly workspace: Workspace;
  /** The time limit of a command that sets none, in seconds (default 120). */
  readonly commandTimeoutSeconds?: number;
  /**
   * How `run_command` runs commands (see `createCommandSandbox`); default: no sandbox. Give the
   * policy the same one through `sandboxPermissionPolicy`, so that leaving it always asks.
   */
  readonly sandbox?: CommandSandbox;
  /** Variables never passed to a command (default: the agent's own keys, `withheldVariables()`). */
  readonly withheld?: ReadonlySet<string>;
  /** The command tool's name (default `run_command`); give the policy the same `commandTool`. */
  readonly commandTool?: string;
}

/**
 * The workspace tools, each an `AgentTool` that says what it will do before it runs, so that
 * the agent's permission policy (or the person) decides first: `read_file`, `list_files`,
 * `search`, `edit_file`, `write_file` and `run_command`.
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions): AgentTool[] {
  const { workspace } = options;
  return [
    createReadFileTool(workspace),
    createListFilesTool(workspace),
    createSearchTool(workspace),
    createEditFileTool(workspace),
    createWriteFileTool(workspace),
    createRunCommandTool(workspace, {
      ...(options.commandTool !== undefined && { name: options.commandTool }),
      ...(options.commandTimeoutSeconds !== undefined && {
        defaultTimeoutSeconds: options.commandTimeoutSeconds,
      }),
      ...(options.sandbox !== undefined && { sandbox: options.sandbox }),
      ...(options.withheld !== undefined && { withheld: options.withheld }),
    }),
  ];
}
