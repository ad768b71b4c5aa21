import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folders: string[] = [];

/** A fresh temporary state folder (for `--state-dir` or `openSessionStore`). */
export function temporaryStateFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-state-'));
  folders.push(folder);
  return folder;
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
