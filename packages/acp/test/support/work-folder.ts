import { realpathSync } from 'node:fs';
import { temporaryFolder } from 'dsh-agent/testing';

const removers: (() => void)[] = [];

/**
 * A fresh temporary folder, by its real path (the one a program reports back, where `/tmp` is a
 * link), removed after the test by `removeWorkFolders`.
 */
export function workFolder(prefix: string): string {
  const folder = temporaryFolder(prefix);
  removers.push(folder.remove);
  return realpathSync(folder.path);
}

/** Removes every folder `workFolder` made so far (each test file's `afterEach`). */
export function removeWorkFolders(): void {
  for (const remove of removers.splice(0)) remove();
}
