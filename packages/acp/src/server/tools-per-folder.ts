/** How many folders' tools a server keeps ready at most; the least recently used go first. */
export const FOLDERS_KEPT = 64;

/**
 * `open` once per folder: the sessions of one folder share its workspace tools and permission
 * policy (which holds no state of a session's: it reads the rules files at each decision, so
 * one session's "always" applies in the others at once). A session opened in a known folder
 * starts with no file-system work at all (opening a workspace resolves its real path and
 * checks it is a folder, two trips through libuv's thread pool). A failed open is forgotten,
 * so the next session in that folder tries again and gets its own error. A folder removed or
 * relinked after its first session is found so by the tools, as in a session that was open
 * when it happened.
 */
export function toolsPerFolder<Tools>(
  open: (folder: string) => Promise<Tools>,
  kept = FOLDERS_KEPT,
): (folder: string) => Promise<Tools> {
  const opened = new Map<string, Promise<Tools>>();
  return (folder) => {
    const known = opened.get(folder);
    if (known !== undefined) {
      // Most recently used last: a Map keeps the order in which keys were set.
      opened.delete(folder);
      opened.set(folder, known);
      return known;
    }
    const opening = open(folder);
    opened.set(folder, opening);
    opening.catch(() => {
      if (opened.get(folder) === opening) opened.delete(folder);
    });
    if (opened.size > kept) opened.delete(opened.keys().next().value as string);
    return opening;
  };
}
