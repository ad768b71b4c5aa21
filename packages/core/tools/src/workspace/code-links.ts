import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { gitHooksFolders, readSmall } from './git-hooks-folders.js';
import { CODE_FOLDERS, START_UP_FILES } from './runs-code-later.js';
import { isInside, type Workspace } from './workspace.js';

/**
 * Where a link named for what runs code later leads: a write there changes what git, an editor,
 * a shell or the agent runs, though its own path names none of them (`.vscode -> editor`, then
 * `editor/tasks.json`; `.mcp.json -> config/servers.json`, which may not exist yet). Links are
 * followed hop by hop, dangling ones too, as the program that reads the name would follow them
 * once their target exists; a `.git` file's `gitdir:` counts as a link. So does the folder git
 * runs hooks from (`core.hooksPath`, `git-hooks-folders.ts`).
 */

const NAMES = [...CODE_FOLDERS, ...START_UP_FILES];

/** As many hops as Linux follows before `ELOOP`. */
const MAX_HOPS = 40;

/** `path` with the links of its folders resolved: the nearest existing folder, then the rest. */
function withRealFolders(path: string): string {
  const missing = [basename(path)];
  let folder = dirname(path);
  for (;;) {
    try {
      return join(realpathSync.native(folder), ...missing);
    } catch {
      const parent = dirname(folder);
      if (parent === folder) return path;
      missing.unshift(basename(folder));
      folder = parent;
    }
  }
}

/** The `gitdir:` a `.git` file names, resolved from its folder; `undefined` for anything else. */
function gitFileTarget(path: string): string | undefined {
  if (lstatSync(path, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
  const target = /^gitdir: (.+)$/m.exec(readSmall(path))?.[1]?.trim();
  return target === undefined ? undefined : resolve(dirname(path), target);
}

/** Every place the link at `path` leads, hop by hop (empty when it is no link). */
function linkHops(path: string): string[] {
  const hops: string[] = [];
  const gitdir = basename(path) === '.git' ? gitFileTarget(path) : undefined;
  if (gitdir !== undefined) hops.push(withRealFolders(gitdir));
  let current = gitdir === undefined ? path : withRealFolders(gitdir);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    let text: string;
    try {
      // Most names are absent: no error is made for them (an error's stack costs microseconds).
      if (lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink() !== true) break;
      text = readlinkSync(current);
    } catch {
      break;
    }
    current = withRealFolders(resolve(dirname(current), text));
    hops.push(current);
  }
  return hops;
}

/**
 * True when `path` (absolute, resolved, inside `workspace`) is where a link named for what runs
 * code later leads, or inside it: one at the top of the workspace or in any folder above `path`
 * (a nested project opened on its own). A link elsewhere is not looked for: the policy does not
 * walk the workspace on every write.
 */
export function leadsThroughCodeLink(workspace: Workspace, path: string): boolean {
  // The folder git runs hooks from, with the links of its own path resolved.
  if (gitHooksFolders(path).some((folder) => isInside(withRealFolders(folder), path))) return true;
  for (let folder = dirname(path); isInside(workspace.root, folder); folder = dirname(folder)) {
    for (const name of NAMES) {
      if (linkHops(join(folder, name)).some((hop) => isInside(hop, path))) return true;
    }
    if (folder === workspace.root) break;
  }
  return false;
}
