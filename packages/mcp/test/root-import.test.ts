import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagesLoadedAtImport } from '../../../scripts/test/support/import-graph.js';

// Reads dist/: the tests' global setup builds it first.
const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

describe('what importing dsh-mcp loads', () => {
  it('the root loads the contract only: the MCP client when a server is first connected', () => {
    expect(packagesLoadedAtImport(dist('index.js')).packages).toEqual(['dsh-user-interaction']);
  });
});
