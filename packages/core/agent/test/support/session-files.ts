import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sessionFileLines, sessionFilePath, temporaryStateFolder } from '../../src/testing.js';

export {
  sessionFileLines as sessionLines,
  sessionFilePath as sessionPath,
  temporaryStateFolder as stateFolder,
};

/** What the sessions folder holds besides session files (lock folders and their files). */
export function lockFiles(stateDir: string): string[] {
  const sessions = join(stateDir, 'sessions');
  return readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter(
    (name) => !name.endsWith('.jsonl'),
  );
}
