import { type AgentRunCommand, stateDirFor } from 'dsh-agent/command-line';
import { parseRule } from '../policy/permission-rule.js';
import { withheldVariables } from '../sandbox/command-environment.js';
import { createCommandSandbox } from '../sandbox/command-sandbox.js';
import { probeSandbox } from '../sandbox/sandbox-status.js';
import { isWorkspaceToolError } from '../tool-error.js';
import { rulesText } from './rules-text.js';
import { type WorkspaceAgentTools, workspaceAgentTools } from './workspace-agent-tools.js';

/**
 * The workspace tools and policy of `folder` under the command line's `--allow`, `--deny`,
 * `--permission-mode`, `--sandbox`, `--sandbox-hide`, `--hide-env` and `--pass-env`, in the state
 * folder it names (else the default one `env` says). The sandbox is probed once per process.
 * Throws as `workspaceAgentTools` does.
 */
export function commandWorkspaceTools(
  command: AgentRunCommand,
  folder: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<WorkspaceAgentTools> {
  return commandWorkspaceToolsIn(command, folder, stateDirFor(command, env), env);
}

/** `commandWorkspaceTools` with its rules in `stateDir` (a demo's own scratch state). */
export async function commandWorkspaceToolsIn(
  command: AgentRunCommand,
  folder: string,
  stateDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<WorkspaceAgentTools> {
  const status = await probeSandbox({ env, untrusted: folder });
  const sandbox = createCommandSandbox({
    choice: command.sandbox,
    status,
    stateDir,
    hide: command.sandboxHide,
    ...(env.HOME !== undefined && env.HOME !== '' && { home: env.HOME }),
    env,
  });
  const mode = command.permissionMode;
  return workspaceAgentTools({
    folder,
    stateDir,
    allow: command.allow,
    deny: command.deny,
    ...(mode === 'read-only' && { mode }),
    allowSandboxed: mode === 'allow-sandboxed',
    sandbox,
    withheld: withheldVariables({ hide: command.hideEnv, pass: command.passEnv }),
  });
}

/** Where a program says why it ends. */
export interface WorkspaceProblemOptions {
  /** Writes one line for the person. */
  readonly say: (line: string) => void;
  /** Said after a bad rule: where the usage is, `(see my-agent --help)`. */
  readonly usageHint: string;
}

/** Options of `permissionFlagsStatus`. */
export interface PermissionFlagsOptions extends WorkspaceProblemOptions {
  /** Where `--permissions` writes the rules. */
  readonly stdout: NodeJS.WritableStream;
  /** The folder whose rules `--permissions` lists: `process.cwd()`, unless given. */
  readonly cwd?: string;
  /** Where the default state folder is read from: `process.env`, unless given. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Says a workspace tool's error for the person and gives the program's exit status: 2 for a bad
 * rule (`RULE_INVALID`, said with `usageHint`), 1 for any other. Rethrows any other error.
 */
export function workspaceProblemStatus(
  error: unknown,
  { say, usageHint }: WorkspaceProblemOptions,
): number {
  if (!isWorkspaceToolError(error)) throw error;
  const badRule = error.code === 'RULE_INVALID';
  say(badRule ? `${error.message} ${usageHint}` : error.message);
  return badRule ? 2 : 1;
}

/**
 * What a program does with the permission flags before it starts: checks every `--allow` and
 * `--deny` rule and, for `--permissions`, writes the rules in force in the current folder. The
 * exit status when the program ends here (0 after `--permissions`, else as
 * `workspaceProblemStatus` says), or `undefined` to go on.
 */
export async function permissionFlagsStatus(
  command: AgentRunCommand,
  options: PermissionFlagsOptions,
): Promise<number | undefined> {
  try {
    for (const rule of [...command.allow, ...command.deny]) parseRule(rule);
    if (!command.listPermissions) return undefined;
    const { permissions } = await commandWorkspaceTools(
      command,
      options.cwd ?? process.cwd(),
      options.env,
    );
    options.stdout.write(rulesText(permissions, command.permissionMode));
    return 0;
  } catch (error) {
    return workspaceProblemStatus(error, options);
  }
}
