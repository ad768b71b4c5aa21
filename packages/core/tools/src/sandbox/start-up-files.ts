import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { READ_ONLY_IN_WORKSPACE } from './command-sandbox.js';

/** The start-up files the sandbox keeps read-only: every entry but `.git` (a command may init one). */
const START_UP_FILES = READ_ONLY_IN_WORKSPACE.filter((name) => name !== '.git');

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The start-up files missing from `workspace` now. A read-only mount can only lie over what
 * exists, so a sandboxed command could create one (`.envrc`, `.bashrc` where the workspace is
 * home) for a shell or direnv to run outside the sandbox later: `removeCreated` takes them away
 * once the command and all it started have ended, before anything else can run them.
 */
export function missingStartUpFiles(workspace: string): string[] {
  return START_UP_FILES.filter((name) => !exists(join(workspace, name)));
}

/** Removes those of `missing` the command created, and says which, for the model and the person. */
export function removeCreated(workspace: string, missing: readonly string[]): string | undefined {
  const created = missing.filter((name) => exists(join(workspace, name)));
  for (const name of created) rmSync(join(workspace, name), { recursive: true, force: true });
  if (created.length === 0) return undefined;
  return `The sandbox removed ${created.join(', ')}, which the command created: a start-up file runs code outside the sandbox the next time a shell or direnv starts there.`;
}
