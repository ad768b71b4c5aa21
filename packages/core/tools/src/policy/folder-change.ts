import { isAbsolute, join } from 'node:path';
import { resolvePath, type Workspace } from '../workspace/workspace.js';
import type { CommandPart } from './command/analyse-command.js';
import { commandName } from './command/command-name.js';

/** Builtins that change the folder the rest of the command runs in. */
const FOLDER_CHANGES = new Set(['cd', 'pushd', 'popd']);

/**
 * Whether a command's parts may take the rest of it out of the workspace: a `cd` (or `pushd`,
 * `popd`) to anywhere but one folder named plainly from where it runs and inside the workspace
 * (`cd` alone goes home, `cd -` back, `cd ~`, `cd /`, `cd ..` out), or more than one of them
 * (each is read from where the command starts, not from where the last one led). A rule that
 * allows `cd` allows it only inside: what runs elsewhere is asked, as the policy promises.
 */
export async function mayLeaveWorkspace(
  parts: readonly CommandPart[],
  cwd: string,
  workspace: Workspace,
): Promise<boolean> {
  const moves = parts.filter((part) => {
    const name = part.words[0];
    return typeof name === 'string' && FOLDER_CHANGES.has(commandName(name));
  });
  if (moves.length === 0) return false;
  if (moves.length > 1) return true;
  const [move] = moves as [CommandPart];
  const target = move.words[1];
  if (move.words.length !== 2 || commandName(move.words[0] as string) === 'popd') return true;
  if (typeof target !== 'string' || target === '' || /^[-+~]/.test(target)) return true;
  try {
    return !(await resolvePath(workspace, isAbsolute(target) ? target : join(cwd, target))).inside;
  } catch {
    return true;
  }
}
