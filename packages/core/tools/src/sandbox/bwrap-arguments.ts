import { dirname, isAbsolute, relative } from 'node:path';

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
 * The flags every sandboxed command starts with, before the mounts of its layout: its own
 * namespaces, no capability, the system read-only with a new `/dev`, `/proc` and `/tmp`. The
 * sandbox probe starts `true` with these, so that what it proves holds for every command.
 */
export function isolationArguments(network: boolean): string[] {
  // No capability at all, even for root: with them a command could unmount what hides the
  // state folder and ~/.ssh, or remount / writable.
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--cap-drop', 'ALL'];
  if (!network) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  return args;
}

/**
 * bwrap's arguments to run `command` with `bash -c` inside `layout`. Order matters: each mount
 * lies over those before it. The whole system read-only, a new `/dev`, `/proc` and `/tmp`; then
 * the workspace writable; then what stays read-only inside it; then what is hidden, each folder
 * an empty read-only tmpfs and each file `/dev/null`. A hidden folder holding the workspace is
 * hidden first, so the workspace shows through it. No capabilities (root's dropped too). Its own
 * PID namespace and `--die-with-parent`
 * end everything it starts with it; `--new-session` keeps it from the person's terminal.
 * `--json-status-fd 3` tells the caller whether the command started at all.
 */
export function bwrapArguments(layout: SandboxLayout, command: string): string[] {
  const args = isolationArguments(layout.network);
  const holding = layout.hidden.filter(
    (entry) => entry.folder && isWithin(entry.path, layout.workspace),
  );
  // Writable: the workspace is mounted inside it, which a read-only tmpfs would refuse.
  for (const entry of holding) args.push('--tmpfs', entry.path);
  args.push('--bind', layout.workspace, layout.workspace);
  // Each folder between the workspace and what is kept read-only or hidden inside it is a mount
  // of its own (writable as it was): a mount point cannot be renamed, so `mv conf conf2` cannot
  // carry a hidden file to where the next command's layout would not look for it.
  const pinned = new Set<string>();
  for (const path of [...layout.readOnly, ...layout.hidden.map((entry) => entry.path)]) {
    if (path === layout.workspace || !isWithin(layout.workspace, path)) continue;
    for (let folder = dirname(path); folder !== layout.workspace; folder = dirname(folder)) {
      if (!isWithin(layout.workspace, folder) || pinned.has(folder)) break;
      pinned.add(folder);
    }
  }
  for (const folder of [...pinned].sort((a, b) => a.length - b.length))
    args.push('--bind', folder, folder);
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
