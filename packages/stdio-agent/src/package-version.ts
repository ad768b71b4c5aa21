import { readFileSync } from 'node:fs';

/** This package's version, from its `package.json` (one folder above both `src/` and `dist/`). */
export function packageVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  return manifest.version;
}
