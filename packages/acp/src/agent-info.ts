import { readFileSync } from 'node:fs';
import type { Implementation } from '@agentclientprotocol/sdk';

let cached: Implementation | undefined;

/**
 * This package's name and version, read from its `package.json` (one folder above both
 * `src/` and `dist/`), as the `agentInfo` of `initialize`.
 */
export function packageAgentInfo(): Implementation {
  if (cached === undefined) {
    const manifest = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { name: string; version: string };
    cached = Object.freeze({ name: manifest.name, title: 'dsh agent', version: manifest.version });
  }
  return cached;
}
