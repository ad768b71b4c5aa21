import { readFileSync } from 'node:fs';

/** The version in this package's package.json, one folder above both `src/` and `dist/`. */
export function packageVersion(): string {
  const manifest = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}
