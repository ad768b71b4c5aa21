import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  importGraph,
  packagesLoadedAtImport,
} from '../../../../scripts/test/support/import-graph.js';

// Reads dist/: the tests' global setup builds it first.
const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

describe('what importing dsh-user-interaction loads', () => {
  it('the root loads nothing but itself, not even a module of Node: the contract runs anywhere', () => {
    expect(packagesLoadedAtImport(dist('index.js'))).toEqual({
      builtins: [],
      packages: ['dsh-user-interaction'],
    });
  });

  it('the provider subpath loads none of the service, the tool or the checks', () => {
    expect(importGraph(dist('provider.js')).specifiers.size).toBe(0);
  });

  it('only the host subpath touches the file system', () => {
    expect(packagesLoadedAtImport(dist('host.js')).builtins).toEqual(['fs']);
    expect(packagesLoadedAtImport(dist('agent-tool.js'))).toEqual({ builtins: [], packages: [] });
  });
});
