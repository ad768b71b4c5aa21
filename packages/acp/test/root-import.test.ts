import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagesLoadedAtImport } from '../../../scripts/test/support/import-graph.js';

// Reads dist/: the tests' global setup builds it first.
const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

describe('what importing dsh-acp loads', () => {
  it('the root loads the question provider: the ACP SDK and the contract, no agent, tools or MCP', () => {
    expect(packagesLoadedAtImport(dist('index.js')).packages).toEqual([
      '@agentclientprotocol/sdk',
      'dsh-user-interaction',
    ]);
  });

  it('the agent server, on its own subpath, loads the agent loop and MCP', () => {
    const { packages } = packagesLoadedAtImport(dist('server.js'));
    expect(packages).toContain('dsh-agent');
    expect(packages).toContain('dsh-mcp');
  });
});
