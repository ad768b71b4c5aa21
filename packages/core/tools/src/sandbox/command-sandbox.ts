import { lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { PermissionSandbox, SandboxConfinement } from 'dsh-user-interaction';
import { WorkspaceToolError } from '../tool-error.js';
import { readSmall } from '../workspace/git-hooks-folders.js';
import { CODE_FOLDERS, START_UP_FILES } from '../workspace/runs-code-later.js';
import { bwrapArguments, isWithin, type SandboxLayout } from './bwrap-arguments.js';
import type { SandboxStatus } from './sandbox-status.js';

/** Whether commands run in the OS sandbox: when it can start, always, never (`--sandbox`). */
export type SandboxChoice = 'auto' | 'on' | 'off';

/**
 * What no sandboxed command can read or write, under the home folder: keys, tokens and the
 * credentials of other tools. The state folder, the agent's own sockets and `--sandbox-hide`
 * paths are added to it.
 */
export const HIDDEN_HOME_PATHS = Object.freeze([
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.netrc',
  '.git-credentials',
  '.docker/config.json',
  '.kube',
]);

/** Sockets that would hand a command the powers of another program (Docker's is root's). */
const HIDDEN_SOCKETS = ['/run/docker.sock', '/var/run/docker.sock', '/run/podman/podman.sock'];

/**
 * Read-only even inside the workspace, at its top: what runs code the next time git, an editor,
 * a shell, direnv or this agent starts there (`runs-code-later.ts`). The whole of `.git` (as
 * Codex keeps it): with only its hooks and config read-only, a command could rename `.git` and
 * put a copy with hooks of its own in its place, point `commondir` or a `gitdir:` file elsewhere,
 * or write a submodule's hooks under `.git/modules`; git then runs them outside the sandbox, the
 * next time the person uses it. Commits and checkouts need the person's approval to leave the
 * sandbox.
 */
export const READ_ONLY_IN_WORKSPACE: readonly string[] = Object.freeze([
  ...CODE_FOLDERS,
  ...START_UP_FILES,
]);

/**
 * The folder a `.git` file points to (`gitdir: …`, a worktree's or a submodule's), resolved: kept
 * read-only too where it lies inside the workspace (outside, everything is read-only already).
 */
function gitDirOf(root: string): string[] {
  // Read as the policy reads it: never a FIFO (a command may make `.git` where there was none,
  // and opening a FIFO blocks the agent's one thread until a writer comes).
  const target = /^gitdir: (.+)$/m.exec(readSmall(join(root, '.git')))?.[1]?.trim();
  return target === undefined ? [] : [resolve(root, target)];
}

/** Options of `createCommandSandbox`. */
export interface CommandSandboxOptions {
  /** `--sandbox`: `auto` (default), `on` or `off`. */
  readonly choice?: SandboxChoice;
  /** What `probeSandbox` found. */
  readonly status: SandboxStatus;
  /** The state folder (sessions, rules files, locks): hidden from every command. */
  readonly stateDir?: string;
  /** More paths to hide (`--sandbox-hide`): absolute, or `~/…`. */
  readonly hide?: readonly string[];
  /** The home folder (default `os.homedir()`). */
  readonly home?: string;
  /** Where `SSH_AUTH_SOCK` and `XDG_RUNTIME_DIR` are read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** How commands run: in the sandbox or not, said for the person, and how to start one. */
export interface CommandSandbox {
  readonly choice: SandboxChoice;
  readonly status: SandboxStatus;
  /** True when commands run in the sandbox (it is available, and not turned off). */
  readonly active: boolean;
  /** Throws `SANDBOX_UNAVAILABLE` when no command may run: `--sandbox on` without a sandbox. */
  requireAvailable(): void;
  /**
   * What a command run with `widening` reaches, for the approval (`sandboxed` without one);
   * `undefined` where there is no sandbox and the person did not turn it off (`auto`): commands
   * run as they did before there was one, as the status line says.
   */
  confinement(widening?: 'network' | 'none'): PermissionSandbox | undefined;
  /** The program and arguments that run `command` in `cwd` as `confinement` says. */
  launch(
    command: string,
    cwd: string,
    workspace: string,
    confinement: SandboxConfinement,
  ): { readonly file: string; readonly args: string[]; readonly sandboxed: boolean };
}

/** A path as it exists now, symlinks resolved; `undefined` when nothing is there. */
function existing(path: string): { path: string; folder: boolean } | undefined {
  try {
    const real = realpathSync(path);
    return { path: real, folder: lstatSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}

function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(path);
}

const NOTES = {
  sandboxed:
    'Sandboxed: it writes only the workspace and a private /tmp, has no network, and cannot read ~/.ssh, your keys or the agent’s state.',
  network:
    'Sandboxed WITH THE NETWORK: it writes only the workspace and a private /tmp, and can reach any host.',
  none: 'OUTSIDE THE SANDBOX: it runs with your full powers: it can write any of your files, read ~/.ssh and your keys, and use the network.',
} as const;

/** Why a command runs outside the sandbox although it asked for none of that. */
function unconfinedNote(choice: SandboxChoice, status: SandboxStatus): string {
  if (choice === 'off') return 'Not sandboxed (--sandbox off): it runs with your full powers.';
  return `Not sandboxed: ${status.available ? 'the sandbox is off' : status.reason}; it runs with your full powers.`;
}

/**
 * How `run_command` runs commands under `--sandbox`: with `auto`, in bubblewrap when the probe
 * found it working, else as before (the status line says so); with `on`, never outside it (a command that
 * cannot be sandboxed is refused with `SANDBOX_UNAVAILABLE`); with `off`, never in it.
 */
export function createCommandSandbox(options: CommandSandboxOptions): CommandSandbox {
  const choice = options.choice ?? 'auto';
  const { status } = options;
  const active = choice !== 'off' && status.available;
  const home = options.home ?? homedir();
  const env = options.env ?? process.env;
  const hiddenPaths = [
    ...HIDDEN_HOME_PATHS.map((path) => join(home, path)),
    ...HIDDEN_SOCKETS,
    ...(env.SSH_AUTH_SOCK !== undefined && isAbsolute(env.SSH_AUTH_SOCK)
      ? [env.SSH_AUTH_SOCK]
      : []),
    // The person's session sockets: the keyring, gpg-agent, D-Bus.
    ...(env.XDG_RUNTIME_DIR !== undefined && isAbsolute(env.XDG_RUNTIME_DIR)
      ? [env.XDG_RUNTIME_DIR]
      : []),
    ...(options.stateDir !== undefined ? [resolve(options.stateDir)] : []),
    ...(options.hide ?? []).map((path) => expandHome(path, home)),
  ];

  function layout(cwd: string, workspace: string, network: boolean): SandboxLayout {
    const root = realpathSync(workspace);
    // Looked at for each command: a folder made since must be hidden too.
    const hidden = hiddenPaths
      .map(existing)
      .filter((entry): entry is { path: string; folder: boolean } => entry !== undefined)
      .sort((a, b) => a.path.length - b.path.length);
    const readOnly = [...READ_ONLY_IN_WORKSPACE.map((path) => join(root, path)), ...gitDirOf(root)]
      .map(existing)
      .filter((entry): entry is { path: string; folder: boolean } => entry !== undefined)
      .map((entry) => entry.path)
      .filter((path) => isWithin(root, path));
    return { workspace: root, cwd: realpathSync(cwd), hidden, readOnly, network };
  }

  function requireAvailable(): void {
    if (choice === 'on' && !status.available) {
      throw new WorkspaceToolError(
        `The command did not run: --sandbox on, and the sandbox cannot start here (${status.reason}). Fix: ${status.fix}.`,
        'SANDBOX_UNAVAILABLE',
      );
    }
  }

  return {
    choice,
    status,
    active,
    confinement(widening) {
      if (choice === 'auto' && !status.available) return undefined;
      if (!active) return { confinement: 'none', note: unconfinedNote(choice, status) };
      const confinement = widening ?? 'sandboxed';
      return { confinement, note: NOTES[confinement] };
    },
    requireAvailable,
    launch(command, cwd, workspace, confinement) {
      requireAvailable();
      if (!active || confinement === 'none') {
        return { file: 'bash', args: ['-c', command], sandboxed: false };
      }
      const bwrap = (status as { bwrap: string }).bwrap;
      const args = bwrapArguments(layout(cwd, workspace, confinement === 'network'), command);
      return { file: bwrap, args, sandboxed: true };
    },
  };
}
