import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Script } from '../script/script.js';

/** Writes `script` to `script.json` in `folder`, for a program's `--script`; returns its path. */
export function writeScriptFile(folder: string, script: Script): string {
  const path = join(folder, 'script.json');
  writeFileSync(path, JSON.stringify(script));
  return path;
}
