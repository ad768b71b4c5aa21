import type { AgentRunCommand } from 'dsh-agent/command-line';
import { commandWorkspaceToolsIn } from './command-workspace.js';
import { createScratchFolder, type WorkspaceAgentTools } from './workspace-agent-tools.js';

/** A demo's workspace: a scratch folder with its files, and its own scratch state folder. */
export interface DemoWorkspace extends WorkspaceAgentTools {
  /** The scratch folder the demo works in. */
  readonly folder: string;
  /** Removes both folders (they go at exit anyway). Idempotent. */
  remove(): void;
}

/**
 * The workspace tools and policy of a demo, under the command line's `--allow`, `--deny`,
 * `--permission-mode` and sandbox flags: it works in a scratch folder holding `files`, and an "always" answer
 * keeps its rule in a scratch state folder of its own, so that the demo leaves nothing in the
 * person's state (a rule for a folder that is then removed would stay there for ever). Throws
 * as `workspaceAgentTools` does, having removed both folders.
 */
export async function demoWorkspaceTools(
  command: AgentRunCommand,
  files: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<DemoWorkspace> {
  const scratch = createScratchFolder(files);
  const state = createScratchFolder({}, 'dsh-demo-state-');
  const remove = () => {
    scratch.remove();
    state.remove();
  };
  try {
    // The command's sandbox, modes and withheld variables, with the demo's own state folder.
    const tools = await commandWorkspaceToolsIn(command, scratch.folder, state.folder, env);
    return { ...tools, folder: scratch.folder, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
