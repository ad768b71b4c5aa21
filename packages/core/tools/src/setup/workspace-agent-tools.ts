import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PermissionMode } from 'dsh-user-interaction';
import type { AgentTool } from 'dsh-user-interaction/agent-tool';
import {
  createPermissionPolicy,
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
  /** `read-only`, `ask` (the default) or `allow-sandboxed` (the same as `allowSandboxed: true`). */
  readonly mode?: PermissionMode;
  /** How commands run (see `createCommandSandbox`); default: no sandbox, as before. */
  readonly sandbox?: CommandSandbox;
  /**
   * Commands that stay in the running sandbox run unasked unless a rule denies them (default:
   * whether `mode` is `allow-sandboxed`).
   */
  readonly allowSandboxed?: boolean;
  /** Variables never passed to a command (default: the agent's own keys). */
  readonly withheld?: ReadonlySet<string>;
  /** The command tool's name, for the tool and its rules (default `run_command`). */
  readonly commandTool?: string;
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
      ...(options.commandTool !== undefined && { commandTool: options.commandTool }),
    }),
    {
      sandbox,
      allowSandboxed: options.allowSandboxed ?? options.mode === 'allow-sandboxed',
    },
  );
  const tools = createWorkspaceTools({
    workspace,
    sandbox,
    ...(options.withheld !== undefined && { withheld: options.withheld }),
    ...(options.commandTool !== undefined && { commandTool: options.commandTool }),
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
  if (!staleRemoved.has(prefix)) {
    staleRemoved.add(prefix);
    removeStaleScratchFolders(prefix);
  }
  // The pid in the name says whose it is: a folder left by a program killed with -9 (which
  // runs no exit handler) is removed at the next start, by `removeStaleScratchFolders`.
  const folder = mkdtempSync(join(tmpdir(), `${prefix}${process.pid}-`));
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

/** The prefixes whose stale folders this process removed already (once each). */
const staleRemoved = new Set<string>();

/**
 * Removes the scratch folders of `prefix` that a program which no longer runs left in the
 * temporary folder (killed with -9, it could not remove its own): only real folders of this
 * user, named with the pid of a process that is gone. Anything else is left alone: a link, a
 * file, another user's folder, a folder of a running process, a name without a pid.
 */
export function removeStaleScratchFolders(prefix = 'dsh-demo-'): void {
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)-[^/]+$`);
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    const path = join(tmpdir(), name);
    try {
      const found = lstatSync(path);
      if (!found.isDirectory() || found.uid !== process.getuid?.()) continue;
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile, or not ours to remove: nothing depends on it.
    }
  }
}

/** Whether a process of this id runs (`EPERM`: it does, as another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** The scratch folders not removed yet: every one goes when the process exits. */
const scratchFolders = new Set<string>();
let removingAtExit = false;
