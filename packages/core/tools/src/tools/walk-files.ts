import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { eventLoopTurns } from './event-loop-turns.js';
import { type IgnoreRules, readIgnoreRules, WILDCARD_RULES } from './ignore-rules.js';

/** A file found by `walkFiles`. */
export interface FoundFile {
  /** Its path relative to the folder walked, `/`-separated. */
  readonly relative: string;
  readonly path: string;
}

interface Rules {
  /** The folder the rules are relative to, relative to the walk's root ('' for the root). */
  readonly base: string;
  readonly rules: IgnoreRules;
}

/** Folders listed between two turns of the event loop at most. */
const FOLDERS_AT_ONCE = 32;

/** Folders never walked: a repository's own data, and installed packages nobody edits by hand. */
const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn']);

/** Whether the rules ignore an entry: the deepest `.gitignore` that names it decides, as in git. */
function ignored(
  stack: readonly Rules[],
  relative: string,
  name: string,
  folder: boolean,
): boolean {
  for (let index = stack.length - 1; index >= 0; index--) {
    const { base, rules } = stack[index] as Rules;
    const decision = rules.decide(
      base === '' ? relative : relative.slice(base.length + 1),
      name,
      folder,
    );
    if (decision !== undefined) return decision;
  }
  return false;
}

/**
 * The files under `root`, depth first in name order, honouring every `.gitignore` on the way
 * (the root's and those of the folders below) and never entering `.git`: one folder's files at a
 * time (never an empty list), before those of its subfolders. One file at a time, the turn of
 * `for await` each file took (a promise apiece) was most of the walk's own time. Symbolic links
 * are listed as they are, never followed, so a link cannot lead the walk out of the folder or
 * round in a loop. Stops once `stop()` says so, checked between two folders (a caller that must
 * stop within one stops reading its list). Gives the event loop a turn every few milliseconds,
 * inside a folder of 100,000 entries or a `.gitignore` of 100,000 lines too. What the caller
 * should tell (a `.gitignore` with rules past `WILDCARD_RULES`) goes into `notes`.
 */
export async function* walkFiles(
  root: string,
  stop: () => boolean = () => false,
  notes: string[] = [],
): AsyncGenerator<readonly FoundFile[]> {
  const turns = eventLoopTurns();
  let walked = 0;
  const pending: { folder: string; relative: string; stack: readonly Rules[] }[] = [
    { folder: root, relative: '', stack: [] },
  ];
  while (pending.length > 0 && !stop()) {
    const { folder, relative, stack: parentStack } = pending.pop() as (typeof pending)[number];
    let entries: Dirent[];
    try {
      // Read at once: a folder is listed faster so than through the thread pool; the walk
      // gives the event loop a turn every few milliseconds, so nothing waits long behind it.
      entries = readdirSync(folder, { withFileTypes: true });
      if (++walked % FOLDERS_AT_ONCE === 0 || turns.due()) await turns.take();
    } catch {
      // A folder that cannot be read is left out.
      continue;
    }
    let stack = parentStack;
    if (entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
      let text: string | undefined;
      try {
        text = readFileSync(join(folder, '.gitignore'), 'utf8');
      } catch {
        // Unreadable rules hide nothing.
      }
      if (text !== undefined) {
        const rules = await readIgnoreRules(text, turns, stop);
        if (stop()) return;
        stack = [...parentStack, { base: relative, rules }];
        if (rules.skipped > 0)
          notes.push(
            `(${relative === '' ? '' : `${relative}/`}.gitignore has ${rules.skipped} more rules with wildcards than the ${WILDCARD_RULES} applied; the files they name may be listed)`,
          );
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // The folder's path and relative path end with a separator once, not `join` per entry
    // (`join` normalizes the whole path each time: a seventh of a listing's time in a profile).
    const prefix = folder.endsWith(sep) ? folder : folder + sep;
    const relativePrefix = relative === '' ? '' : `${relative}/`;
    const folders: typeof pending = [];
    const files: FoundFile[] = [];
    for (const entry of entries) {
      if (turns.due()) {
        await turns.take();
        if (stop()) return;
      }
      const child = relativePrefix + entry.name;
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED.has(entry.name) || ignored(stack, child, entry.name, true)) continue;
        folders.push({ folder: prefix + entry.name, relative: child, stack });
      } else if (!ignored(stack, child, entry.name, false)) {
        files.push({ relative: child, path: prefix + entry.name });
      }
    }
    if (files.length > 0) yield files;
    // Depth first, in name order.
    for (let index = folders.length - 1; index >= 0; index--)
      pending.push(folders[index] as (typeof pending)[number]);
  }
}
