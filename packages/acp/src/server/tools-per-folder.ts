import { realpathSync } from 'node:fs';

/** How many folders' tools a server keeps ready at most; the least recently used go first. */
export const FOLDERS_KEPT = 64;

/** What `toolsPerFolder` keeps of a folder: where its path led, and what was opened there. */
interface Opened<Tools> {
  readonly root: string;
  readonly tools: Promise<Tools>;
}

/**
 * `open` once per folder: the sessions of one folder share its workspace tools and permission
 * policy (which holds no state of a session's: it reads the rules files at each decision, so
 * one session's "always" applies in the others at once). Each session's folder is resolved
 * again (`resolveFolder`, the real path: one `realpath(3)`, made synchronously, since a trip
 * through libuv's thread pool costs more than the call), and the tools
 * are shared only while it leads where it led when they were opened: a folder relinked to
 * another is opened anew, and one removed fails as it did at first. What is skipped for a known
 * folder is the rest of opening a workspace (checking it is a folder, making its tools and
 * policy). A failed open is forgotten, so the next session in that folder tries again.
 */
export function toolsPerFolder<Tools>(
  open: (folder: string) => Promise<Tools>,
  resolveFolder: (folder: string) => Promise<string> = async (folder) =>
    realpathSync.native(folder),
  kept = FOLDERS_KEPT,
): (folder: string) => Promise<Tools> {
  const opened = new Map<string, Opened<Tools>>();
  return async (folder) => {
    let root: string;
    try {
      root = await resolveFolder(folder);
    } catch {
      // Gone, or never there: `open` says why, as for a folder never seen.
      opened.delete(folder);
      return open(folder);
    }
    const known = opened.get(folder);
    // Most recently used last: a Map keeps the order in which keys were set.
    opened.delete(folder);
    if (known !== undefined && known.root === root) {
      opened.set(folder, known);
      return known.tools;
    }
    const entry: Opened<Tools> = { root, tools: open(folder) };
    opened.set(folder, entry);
    entry.tools.catch(() => {
      if (opened.get(folder) === entry) opened.delete(folder);
    });
    if (opened.size > kept) opened.delete(opened.keys().next().value as string);
    return entry.tools;
  };
}
