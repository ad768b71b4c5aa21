import { spawn } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { isolationArguments } from './bwrap-arguments.js';

/** Whether commands can run in the OS sandbox here, and if not, why and how to fix it. */
export type SandboxStatus =
  | { readonly available: true; readonly bwrap: string }
  | {
      readonly available: false;
      /** `platform`: no sandbox for this system yet; `missing`: no bwrap; `refused`: bwrap cannot start. */
      readonly problem: 'platform' | 'missing' | 'refused';
      /** Why, in words: "bwrap is not installed". */
      readonly reason: string;
      /** How to fix it, in words. */
      readonly fix: string;
    };

/** Options of `probeSandbox`. */
export interface ProbeSandboxOptions {
  /** Where `PATH` is read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The system (default `process.platform`). */
  readonly platform?: NodeJS.Platform;
  /** A folder whose programs are never trusted as bwrap: the workspace, which a command can write. */
  readonly untrusted?: string;
}

const INSTALL =
  'install bubblewrap (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)';
const NAMESPACES_FIX =
  'allow unprivileged user namespaces: on Ubuntu 24.04 or later, an AppArmor profile for bwrap or `sysctl kernel.apparmor_restrict_unprivileged_userns=0`; elsewhere `sysctl kernel.unprivileged_userns_clone=1` or `user.max_user_namespaces`; in a container, run it with `--security-opt seccomp=unconfined --security-opt apparmor=unconfined`';

/** The first `bwrap` on `PATH` that is an executable file outside `untrusted`, resolved. */
export function findBwrap(
  env: Readonly<Record<string, string | undefined>>,
  untrusted?: string,
): string | undefined {
  for (const folder of (env.PATH ?? '').split(':')) {
    // A relative entry (or an empty one, the current folder) depends on where a command runs.
    if (folder === '' || !isAbsolute(folder)) continue;
    const candidate = join(folder, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      if (!statSync(candidate).isFile()) continue;
      const real = realpathSync(candidate);
      if (untrusted !== undefined && !relative(untrusted, real).startsWith('..')) continue;
      return real;
    } catch {
      // Not there: the next folder.
    }
  }
  return undefined;
}

/** What bwrap's failure means, from what it wrote. */
function refusal(stderr: string, status: string): SandboxStatus {
  const said = stderr.trim().split('\n')[0]?.trim() || status;
  const namespaces =
    /RTM_NEWADDR|uid map|uid_map|namespace|Operation not permitted|Permission denied/i.test(stderr);
  return {
    available: false,
    problem: 'refused',
    reason: namespaces
      ? `bwrap cannot create its namespaces here (${said})`
      : `bwrap cannot start (${said})`,
    fix: namespaces ? NAMESPACES_FIX : 'run `bwrap --ro-bind / / true` to see why',
  };
}

function run(bwrap: string): Promise<SandboxStatus> {
  return new Promise((resolve) => {
    // `true`, started as every sandboxed command is (with no network): what fails it fails them.
    const probe = [...isolationArguments(false), '--', 'true'];
    const child = spawn(bwrap, probe, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (stderr.length < 4096) stderr += text;
    });
    // A hung probe would hold every command: it is not the sandbox we want.
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(refusal(stderr, (error as { code?: string }).code ?? error.message));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve(
        code === 0
          ? { available: true, bwrap }
          : refusal(stderr, signal !== null ? `ended by ${signal}` : `exit status ${code}`),
      );
    });
  });
}

/** One probe per bwrap: its answer holds for the life of the process. */
const probes = new Map<string, Promise<SandboxStatus>>();

/**
 * Whether commands can run in the OS sandbox: on Linux, a `bwrap` on `PATH` (outside the
 * workspace) that starts a command in new namespaces, tried once with `true`. Never rejects.
 */
export function probeSandbox(options: ProbeSandboxOptions = {}): Promise<SandboxStatus> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    return Promise.resolve({
      available: false,
      problem: 'platform',
      reason: `dsh has no sandbox for ${platform} yet`,
      fix: 'none yet: every command asks, as before',
    });
  }
  const bwrap = findBwrap(options.env ?? process.env, options.untrusted);
  if (bwrap === undefined) {
    return Promise.resolve({
      available: false,
      problem: 'missing',
      reason: 'bwrap is not installed (not found on PATH)',
      fix: INSTALL,
    });
  }
  let probe = probes.get(bwrap);
  if (probe === undefined) {
    probe = run(bwrap);
    probes.set(bwrap, probe);
  }
  return probe;
}
