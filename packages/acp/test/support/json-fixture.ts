import { readFileSync } from 'node:fs';

/** The parsed JSON of `test/fixtures/<name>` (a script of the scripted model, say). */
export function jsonFixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
}
