import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentTool } from 'dsh-agent';
import {
  createPermissionPolicy,
  type PolicyMode,
  type WorkspacePermissionPolicy,
} from '../policy/permission-policy.js';
import { type CommandSandbox, createCommandSandbox } from '../sandbox/command-sandbox.js';
import { sandboxPermissionPolicy } from '../sandbox/sandbox-policy.js';
import { createWorkspaceTools } from '../tools/create-workspace-tools.js';
import { openWorkspace, type Workspace } from '../workspace/workspace.js';

/** Options of `workspaceAgentTools`. */
export interface WorkspaceAgentToolsOptions {
  /** The folder the agent works in. */
  readonly folder: string;
  /** The state folder, where the rules files live. */
  readonly stateDir: string;
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly mode?: PolicyMode;
  /** How commands run (see `createCommandSandbox`); default: no sandbox, as before. */
  readonly sandbox?: CommandSandbox;
  /** Commands that stay in the running sandbox run unasked unless a rule denies them. */
  readonly allowSandboxed?: boolean;
  /** Variables never passed to a command (default: the agent's own keys). */
  readonly withheld?: ReadonlySet<string>;
}

/** What an agent needs to work in a folder: the workspace, its tools, and its policy. */
export interface WorkspaceAgentTools {
  readonly workspace: Workspace;
  readonly tools: AgentTool[];
  readonly permissions: WorkspacePermissionPolicy;
  /** How its commands run. */
  readonly sandbox: CommandSandbox;
}

/** No sandbox at all: commands run as they always did. */
const NO_SANDBOX = createCommandSandbox({
  choice: 'auto',
  status: { available: false, problem: 'platform', reason: 'no sandbox', fix: 'none' },
});

/**
 * The workspace tools and the permission policy of `folder`, as both programs give them to
 * their agent (`tools` and `permissions` of `createAgent`). Throws `PATH_INVALID` for a folder
 * that cannot be a workspace and `RULE_INVALID` for a bad rule.
 */
export async function workspaceAgentTools(
  options: WorkspaceAgentToolsOptions,
): Promise<WorkspaceAgentTools> {
  const workspace = await openWorkspace(options.folder);
  const sandbox = options.sandbox ?? NO_SANDBOX;
  const permissions = sandboxPermissionPolicy(
    createPermissionPolicy({
      workspace,
      stateDir: options.stateDir,
      ...(options.allow !== undefined && { allow: options.allow }),
      ...(options.deny !== undefined && { deny: options.deny }),
      ...(options.mode !== undefined && { mode: options.mode }),
    }),
    {
      sandbox,
      ...(options.allowSandboxed !== undefined && { allowSandboxed: options.allowSandboxed }),
    },
  );
  const tools = createWorkspaceTools({
    workspace,
    sandbox,
    ...(options.withheld !== undefined && { withheld: options.withheld }),
  });
  return { workspace, tools, permissions, sandbox };
}

/** A scratch folder made for a demo, with its files; removed with `remove()` (and at exit). */
export interface ScratchFolder {
  readonly folder: string;
  remove(): void;
}

/**
 * Makes a new folder under the system's temporary folder, holding `files` (by relative path),
 * for a demo to work in: never the person's own files. It is removed when the process exits.
 */
export function createScratchFolder(
  files: Readonly<Record<string, string>>,
  prefix = 'dsh-demo-',
): ScratchFolder {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) {
    const path = join(folder, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  scratchFolders.add(folder);
  if (!removingAtExit) {
    removingAtExit = true;
    // One listener for every folder: a server may make one per session.
    process.on('exit', () => {
      for (const each of scratchFolders) rmSync(each, { recursive: true, force: true });
    });
  }
  return {
    folder,
    remove() {
      if (!scratchFolders.delete(folder)) return;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The scratch folders not removed yet: every one goes when the process exits. */
const scratchFolders = new Set<string>();
let removingAtExit = false;
