import { isAbsolute, relative } from 'node:path';

/** What one sandboxed command may reach: every path absolute and real (symlinks resolved). */
export interface SandboxLayout {
  /** The only folder it may write, besides its private `/tmp`. */
  readonly workspace: string;
  /** Where it starts. */
  readonly cwd: string;
  /** Paths it can neither read nor write, each as it exists now: a folder or a file. */
  readonly hidden: readonly { readonly path: string; readonly folder: boolean }[];
  /** Paths inside the workspace it may read but not write (`.git/hooks`, `.bashrc`…). */
  readonly readOnly: readonly string[];
  /** Whether it has the network (else a network namespace of its own, with only loopback). */
  readonly network: boolean;
}

/** True when `path` is `folder` or lies inside it. */
export function isWithin(folder: string, path: string): boolean {
  const between = relative(folder, path);
  return between === '' || (!between.startsWith('..') && !isAbsolute(between));
}

/**
 * bwrap's arguments to run `command` with `bash -c` inside `layout`. Order matters: each mount
 * lies over those before it. The whole system read-only, a new `/dev`, `/proc` and `/tmp`; then
 * the workspace writable; then what stays read-only inside it; then what is hidden, each folder
 * an empty read-only tmpfs and each file `/dev/null`. A hidden folder holding the workspace is
 * hidden first, so the workspace shows through it. Its own PID namespace and `--die-with-parent`
 * end everything it starts with it; `--new-session` keeps it from the person's terminal.
 * `--json-status-fd 3` tells the caller whether the command started at all.
 */
export function bwrapArguments(layout: SandboxLayout, command: string): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid'];
  if (!layout.network) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  const holding = layout.hidden.filter(
    (entry) => entry.folder && isWithin(entry.path, layout.workspace),
  );
  // Writable: the workspace is mounted inside it, which a read-only tmpfs would refuse.
  for (const entry of holding) args.push('--tmpfs', entry.path);
  args.push('--bind', layout.workspace, layout.workspace);
  for (const path of layout.readOnly) args.push('--ro-bind', path, path);
  const kept: string[] = [];
  for (const entry of layout.hidden) {
    if (holding.includes(entry)) continue;
    // The private `/tmp` hides the real one's files already, except where the workspace shows.
    if (isWithin('/tmp', entry.path) && !isWithin(layout.workspace, entry.path)) continue;
    // Inside a folder already hidden: nothing of it shows, and nothing can be mounted there.
    if (kept.some((folder) => isWithin(folder, entry.path))) continue;
    if (entry.folder) {
      args.push('--tmpfs', entry.path, '--remount-ro', entry.path);
      kept.push(entry.path);
    } else {
      args.push('--ro-bind', '/dev/null', entry.path);
    }
  }
  args.push('--chdir', layout.cwd, '--json-status-fd', '3', '--', 'bash', '-c', command);
  return args;
}
