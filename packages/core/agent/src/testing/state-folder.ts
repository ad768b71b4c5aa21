import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folders: string[] = [];

/** A temporary folder of its own, and how to remove it. */
export interface TemporaryFolder {
  readonly path: string;
  /** Removes the folder and all it holds. Idempotent. */
  remove(): void;
}

/**
 * A fresh temporary folder (in `parent`, by default the system's) that lives until `remove()`:
 * the one way the test kits make one, for a whole test file (`afterAll(folder.remove)`) or,
 * through `workFolder` and `temporaryStateFolder`, one test.
 */
export function temporaryFolder(prefix = 'dsh-test-', parent = tmpdir()): TemporaryFolder {
  const path = mkdtempSync(join(parent, prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A fresh temporary folder for one test, by its real path (the one a program reports back, where
 * `/tmp` is a link), removed by `removeWorkFolders` (each test file's `afterEach`).
 */
export function workFolder(prefix = 'dsh-work-'): string {
  const path = realpathSync(temporaryFolder(prefix).path);
  folders.push(path);
  return path;
}

/** A fresh temporary state folder (for `--state-dir` or `openSessionStore`), as `workFolder`. */
export function temporaryStateFolder(): string {
  return workFolder('dsh-state-');
}

/** Removes every folder `workFolder` and `temporaryStateFolder` made so far: call it after each test. */
export function removeWorkFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** `removeWorkFolders`, by the name the state-folder tests know. */
export const removeTemporaryStateFolders = removeWorkFolders;

/** The path of a session's file in a state folder. */
export function sessionFilePath(stateDir: string, id: string): string {
  return join(stateDir, 'sessions', `${id}.jsonl`);
}

/** The lines of a session's file, parsed. */
export function sessionFileLines(stateDir: string, id: string): Record<string, unknown>[] {
  return readFileSync(sessionFilePath(stateDir, id), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
