import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const folders: string[] = [];

/** A fresh temporary state folder, removed after the test. */
export function stateFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-state-'));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The path of a session's file in a state folder. */
export function sessionPath(stateDir: string, id: string): string {
  return join(stateDir, 'sessions', `${id}.jsonl`);
}

/** The lines of a session's file, parsed. */
export function sessionLines(stateDir: string, id: string): Record<string, unknown>[] {
  return readFileSync(sessionPath(stateDir, id), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** What the sessions folder holds besides session files (lock folders and their files). */
export function lockFiles(stateDir: string): string[] {
  const sessions = join(stateDir, 'sessions');
  return readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter(
    (name) => !name.endsWith('.jsonl'),
  );
}
