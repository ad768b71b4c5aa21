import { posix, win32 } from 'node:path';
import { nulInWorkingDirectory, relativeWorkingDirectory } from './server-errors.js';

function isAbsolutePath(path: string): boolean {
  // Editors on Windows send drive paths; the agent may run elsewhere than the editor.
  return posix.isAbsolute(path) || win32.isAbsolute(path);
}

/** Throws `-32602` for a `cwd` that cannot name a folder: relative, or holding a NUL. */
export function checkWorkingDirectory(cwd: string): void {
  // No file system takes a NUL in a path: Node would throw deep inside (a -32603).
  if (cwd.includes('\0')) throw nulInWorkingDirectory(cwd);
  if (!isAbsolutePath(cwd)) throw relativeWorkingDirectory(cwd);
}
