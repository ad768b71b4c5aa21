import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
 * A fresh temporary folder that lives until `remove()`: the one way the test kits make one, for
 * a whole test file (`afterAll(folder.remove)`) or, through `temporaryStateFolder`, one test.
 */
export function temporaryFolder(prefix = 'dsh-test-'): TemporaryFolder {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A fresh temporary state folder (for `--state-dir` or `openSessionStore`). */
export function temporaryStateFolder(): string {
  const { path } = temporaryFolder('dsh-state-');
  folders.push(path);
  return path;
}

/** Removes every folder `temporaryStateFolder` made so far: call it after each test. */
export function removeTemporaryStateFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

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
