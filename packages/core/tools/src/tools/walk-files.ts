import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Ignore } from 'ignore';
import { loadIgnore } from '../cjs-dependencies.js';

/** A file found by `walkFiles`. */
export interface FoundFile {
  /** Its path relative to the folder walked, `/`-separated. */
  readonly relative: string;
  readonly path: string;
}

interface Rules {
  /** The folder the rules are relative to, relative to the walk's root ('' for the root). */
  readonly base: string;
  readonly rules: Ignore;
}

/** Folders listed between two turns of the event loop. */
const FOLDERS_AT_ONCE = 32;

/** Folders never walked: a repository's own data, and installed packages nobody edits by hand. */
const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn']);

function ignored(stack: readonly Rules[], relative: string, folder: boolean): boolean {
  for (const { base, rules } of stack) {
    const inside = base === '' ? relative : relative.slice(base.length + 1);
    if (rules.ignores(folder ? `${inside}/` : inside)) return true;
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
 * stop within one stops reading its list).
 */
export async function* walkFiles(
  root: string,
  stop: () => boolean = () => false,
): AsyncGenerator<readonly FoundFile[]> {
  const pending: { folder: string; relative: string; stack: readonly Rules[] }[] = [
    { folder: root, relative: '', stack: [] },
  ];
  let walked = 0;
  while (pending.length > 0 && !stop()) {
    const { folder, relative, stack: parentStack } = pending.pop() as (typeof pending)[number];
    let entries: Dirent[];
    try {
      // Read at once: a folder is listed faster so than through the thread pool; the walk
      // yields to the event loop every few folders, so nothing waits long behind it.
      entries = readdirSync(folder, { withFileTypes: true });
      if (++walked % FOLDERS_AT_ONCE === 0) await new Promise((resolve) => setImmediate(resolve));
    } catch {
      // A folder that cannot be read is left out.
      continue;
    }
    let stack = parentStack;
    if (entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
      try {
        const text = readFileSync(join(folder, '.gitignore'), 'utf8');
        stack = [...parentStack, { base: relative, rules: loadIgnore()().add(text) }];
      } catch {
        // Unreadable rules hide nothing.
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
      const child = relativePrefix + entry.name;
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED.has(entry.name) || ignored(stack, child, true)) continue;
        folders.push({ folder: prefix + entry.name, relative: child, stack });
      } else if (!ignored(stack, child, false)) {
        files.push({ relative: child, path: prefix + entry.name });
      }
    }
    if (files.length > 0) yield files;
    // Depth first, in name order.
    for (let index = folders.length - 1; index >= 0; index--)
      pending.push(folders[index] as (typeof pending)[number]);
  }
}
