import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WorkspaceToolError } from '../tool-error.js';

/** The folder the agent works in: its tools' paths are resolved from it, and checked against it. */
export interface Workspace {
  /** The folder as given, absolute. */
  readonly folder: string;
  /** The same folder with every symlink resolved: what paths are checked against. */
  readonly root: string;
}

/** A path as a tool resolved it: absolute, `..` collapsed, every symlink followed. */
export interface ResolvedPath {
  /** The real, absolute path (for a file that does not exist yet: its real folder, then its name). */
  readonly path: string;
  /** The path relative to the workspace, `/`-separated; `undefined` when it is outside. */
  readonly relative: string | undefined;
  /** Whether the path is the workspace or inside it. */
  readonly inside: boolean;
  /** Whether something exists at the path. */
  readonly exists: boolean;
}

/** Opens the workspace at `folder`: it must be a folder; symlinks in its path are resolved. */
export async function openWorkspace(folder: string): Promise<Workspace> {
  const absolute = resolve(folder);
  let root: string;
  try {
    root = realpathSync.native(absolute);
  } catch (error) {
    throw new WorkspaceToolError(
      `The workspace ${absolute} cannot be opened (${codeOf(error)}).`,
      'PATH_INVALID',
      {
        cause: error,
      },
    );
  }
  if (!statSync(root).isDirectory()) {
    throw new WorkspaceToolError(`The workspace ${absolute} is not a folder.`, 'PATH_INVALID');
  }
  return Object.freeze({ folder: absolute, root });
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'an unexpected error';
}

/** Whether `path` (absolute, resolved) is `root` or inside it. */
export function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return path.startsWith(prefix);
}

/** `path` relative to the workspace, `/`-separated, or `undefined` outside it. */
export function workspaceRelative(workspace: Workspace, path: string): string | undefined {
  if (!isInside(workspace.root, path)) return undefined;
  const rel = relative(workspace.root, path);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/**
 * Resolves a path a tool was given (absolute, or relative to the workspace) before anything is
 * checked: `..` collapsed and every symlink followed, so that no link or `..` can make a path
 * outside the workspace look inside it. A path that does not exist resolves through its nearest
 * existing folder. Throws `PATH_INVALID` for a path that is not text or holds a NUL. Resolved
 * with synchronous calls: one `realpath(3)` takes microseconds, a trip through the thread pool
 * far more (see `readTextFileAndMode`).
 */
export async function resolvePath(workspace: Workspace, given: unknown): Promise<ResolvedPath> {
  if (typeof given !== 'string' || given.trim() === '') {
    throw new WorkspaceToolError('`path` must be a non-empty string.', 'PATH_INVALID');
  }
  if (given.includes('\u0000')) {
    throw new WorkspaceToolError('`path` must not contain a NUL character.', 'PATH_INVALID');
  }
  const absolute = isAbsolute(given) ? resolve(given) : resolve(workspace.root, given);
  let existing = absolute;
  const missing: string[] = [];
  let real: string | undefined;
  for (;;) {
    try {
      real = realpathSync.native(existing);
      break;
    } catch (error) {
      const code = codeOf(error);
      // ENOENT and ENOTDIR: that part does not exist (yet); anything else (a loop) is refused.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw new WorkspaceToolError(
          `The path ${given} cannot be resolved (${code}).`,
          'PATH_INVALID',
          {
            cause: error,
          },
        );
      }
      const parent = dirname(existing);
      if (parent === existing) break;
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
  const path = real === undefined ? absolute : join(real, ...missing);
  const inside = isInside(workspace.root, path);
  return Object.freeze({
    path,
    relative: inside ? workspaceRelative(workspace, path) : undefined,
    inside,
    exists: missing.length === 0 && real !== undefined,
  });
}
