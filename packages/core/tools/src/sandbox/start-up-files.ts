import { lstatSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { READ_ONLY_IN_WORKSPACE } from './command-sandbox.js';

/**
 * What the sandbox keeps read-only at the top of the workspace and takes away when a command
 * made it: every entry but `.git` (a command may init a repository).
 */
const REMOVED_WHEN_MADE = READ_ONLY_IN_WORKSPACE.filter((name) => name !== '.git');

/** One of them that a command could make: absent, or a link that leads nowhere (yet). */
export interface MissingEntry {
  readonly name: string;
  /** The text of the link that stood there leading nowhere, if one did. */
  readonly link: string | undefined;
}

/** What stands at `path`: nothing, a link (its text), or anything else. */
function standing(
  path: string,
): { kind: 'none' } | { kind: 'link'; text: string } | { kind: 'other' } {
  try {
    if (!lstatSync(path).isSymbolicLink()) return { kind: 'other' };
    return { kind: 'link', text: readlinkSync(path) };
  } catch {
    return { kind: 'none' };
  }
}

function reaches(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Those of `READ_ONLY_IN_WORKSPACE` (but `.git`) missing from `workspace` now: absent, or a link
 * that leads nowhere (a cloned repository can hold one). A read-only mount can only lie over what
 * exists, so a sandboxed command could create one (`.envrc`, `.bashrc` where the workspace is
 * home, `.vscode/tasks.json`, `.zed/settings.json`), or the folder or file a dangling link names,
 * for a shell, direnv or an editor to run outside the sandbox later: `removeCreated` takes them
 * away once the command and all it started have ended, before anything else can run them.
 */
export function missingStartUpFiles(workspace: string): MissingEntry[] {
  const missing: MissingEntry[] = [];
  for (const name of REMOVED_WHEN_MADE) {
    const path = join(workspace, name);
    const now = standing(path);
    if (now.kind === 'none') missing.push({ name, link: undefined });
    else if (now.kind === 'link' && !reaches(path)) missing.push({ name, link: now.text });
  }
  return missing;
}

/** Whether the command made something of `entry`: it stands there now, or its link leads somewhere. */
function made(workspace: string, entry: MissingEntry): boolean {
  const path = join(workspace, entry.name);
  const now = standing(path);
  if (entry.link === undefined) return now.kind !== 'none';
  // The same dangling link, still leading nowhere, is the person's, left as it was.
  return !(now.kind === 'link' && now.text === entry.link && !reaches(path));
}

/**
 * Removes those of `missing` the command created (a dangling link it filled in: the link, so
 * that nothing reads what it leads to as settings), and says which, for the model and the person.
 */
export function removeCreated(
  workspace: string,
  missing: readonly MissingEntry[],
): string | undefined {
  const created = missing.filter((entry) => made(workspace, entry)).map(({ name }) => name);
  for (const name of created) rmSync(join(workspace, name), { recursive: true, force: true });
  if (created.length === 0) return undefined;
  return `The sandbox removed ${created.join(', ')}, which the command created: a start-up file or an editor's settings run code outside the sandbox the next time a shell, direnv, an editor or the agent starts there.`;
}
