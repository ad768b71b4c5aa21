import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The folders git runs hooks from besides `.git/hooks`: `core.hooksPath` (husky sets `.husky/_`,
 * whose scripts run `.husky/<hook>`; a project may name any folder), relative to the top of the
 * working tree it is set for (githooks(5): git runs a hook from there). Read from the config of
 * every repository above a path (its `.git` folder, or the folder a `.git` file's `gitdir:`
 * names, and that one's `commondir`) and from the person's own config, whose relative value holds
 * in every repository. Fails closed: a `hooksPath` key in any section counts. Not followed: a
 * config's `[include]` files.
 */

/**
 * A file's text, its first 64 KiB; empty when it cannot be read or is no regular file. Opened
 * without blocking, and judged again once open: a FIFO put there (a sandboxed command can make
 * one) would block the agent's one thread until a writer came.
 */
export function readSmall(path: string): string {
  let fd: number | undefined;
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return '';
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return '';
    const bytes = Buffer.allocUnsafe(64 * 1024);
    return bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The values of every `hooksPath` key of a config text (any case, quotes and comments off). */
export function hooksPathValues(text: string): string[] {
  const values: string[] = [];
  for (const match of text.matchAll(/^[ \t]*hookspath[ \t]*=(.*)$/gim)) {
    let value = '';
    let quoted = false;
    for (const char of match[1] ?? '') {
      if (char === '"') quoted = !quoted;
      else if (!quoted && (char === ';' || char === '#')) break;
      else value += char;
    }
    value = value.trim();
    if (value !== '') values.push(value);
  }
  return values;
}

/** The git folders of a working tree at `folder`: its `.git` folder, or where its `.git` file leads. */
function gitFolders(folder: string): string[] {
  const dotGit = join(folder, '.git');
  const stats = lstatSync(dotGit, { throwIfNoEntry: false });
  if (stats === undefined) return [];
  if (stats.isDirectory()) return [dotGit];
  const target = /^gitdir: (.+)$/m.exec(readSmall(dotGit))?.[1]?.trim();
  if (target === undefined) return [];
  const gitdir = resolve(folder, target);
  const common = readSmall(join(gitdir, 'commondir')).trim();
  return common === '' ? [gitdir] : [gitdir, resolve(gitdir, common)];
}

function expand(value: string, base: string, home: string): string {
  if (value === '~' || value.startsWith('~/')) return join(home, value.slice(1));
  return isAbsolute(value) ? value : resolve(base, value);
}

/** Every hooks folder (absolute, links not resolved) that holds for a file at `path`. */
export function gitHooksFolders(path: string, home: string = homedir()): string[] {
  const xdg = process.env.XDG_CONFIG_HOME;
  const personal = [
    join(home, '.gitconfig'),
    join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.config'), 'git', 'config'),
  ].flatMap((file) => hooksPathValues(readSmall(file)));
  const folders: string[] = [];
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    const repositories = gitFolders(folder);
    if (repositories.length > 0) {
      const values = [
        ...personal,
        ...repositories.flatMap((gitdir) => hooksPathValues(readSmall(join(gitdir, 'config')))),
      ];
      for (const value of values) folders.push(expand(value, folder, home));
    }
    if (dirname(folder) === folder) break;
  }
  return folders;
}
