import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { READ_ONLY_IN_WORKSPACE } from './command-sandbox.js';

/**
 * What the sandbox keeps read-only at the top of the workspace and takes away when a command
 * made it: every entry but `.git` (a command may init a repository).
 */
const REMOVED_WHEN_MADE = READ_ONLY_IN_WORKSPACE.filter((name) => name !== '.git');

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Those of `READ_ONLY_IN_WORKSPACE` (but `.git`) missing from `workspace` now. A read-only mount
 * can only lie over what exists, so a sandboxed command could create one (`.envrc`, `.bashrc`
 * where the workspace is home, `.vscode/tasks.json`, `.zed/settings.json`) for a shell, direnv or
 * an editor to run outside the sandbox later: `removeCreated` takes them away once the command
 * and all it started have ended, before anything else can run them.
 */
export function missingStartUpFiles(workspace: string): string[] {
  return REMOVED_WHEN_MADE.filter((name) => !exists(join(workspace, name)));
}

/** Removes those of `missing` the command created, and says which, for the model and the person. */
export function removeCreated(workspace: string, missing: readonly string[]): string | undefined {
  const created = missing.filter((name) => exists(join(workspace, name)));
  for (const name of created) rmSync(join(workspace, name), { recursive: true, force: true });
  if (created.length === 0) return undefined;
  return `The sandbox removed ${created.join(', ')}, which the command created: a start-up file or an editor's settings run code outside the sandbox the next time a shell, direnv, an editor or the agent starts there.`;
}
