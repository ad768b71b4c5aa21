import { readFileSync } from 'node:fs';

/** This package's package.json as the tests read it: the name and version dsh-acp reports. */
export const MANIFEST = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { readonly name: string; readonly version: string };
