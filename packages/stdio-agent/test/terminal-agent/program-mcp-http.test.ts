import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeWorkFolders, workFolder, writeScriptFile } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startHttpServerProcess,
  stopHttpServerProcesses,
} from '../../../mcp/test/support/http-server-process.js';
import { runProgram } from '../support/program-run.js';

// dsh-mcp's loopback Streamable HTTP server (written with the SDK's server package), in a process
// of its own, named by `url` in the configuration people already have.

afterEach(() => {
  removeWorkFolders();
  stopHttpServerProcesses();
});

describe('dsh-stdio-agent --mcp-config, a Streamable HTTP server', () => {
  it('connects it, asks approval for its tool, runs it, then asks its question here, naming it', async () => {
    const folder = workFolder('dsh-mcp-http-');
    const schema = JSON.stringify({
      type: 'object',
      properties: { seats: { type: 'integer', title: 'Seats', minimum: 1 } },
      required: ['seats'],
    });
    const script = writeScriptFile(folder, {
      steps: [
        {
          text: 'Asking the server.',
          toolCalls: [
            { id: 'c1', name: 'mcp__web__ask_form', arguments: { message: 'How many?', schema } },
          ],
        },
        { text: 'Done.' },
      ],
    });
    const url = await startHttpServerProcess();
    writeFileSync(
      join(folder, 'mcp.json'),
      JSON.stringify({ mcpServers: { web: { url, headers: { 'x-team': 'a' } } } }),
    );
    const { code, stdout, stderr } = await runProgram(
      ['--script', script, '--mcp-config', join(folder, 'mcp.json'), '--no-history'],
      'deploy\ny\n4\n1\n',
    );
    expect(stderr).toMatch(/MCP server web: connected, \d+ tools\n/);
    expect(stdout).toContain('? Allow this? web: ask_form {"message":"How many?"');
    expect(stdout).toContain('MCP server web\n? Seats\n  web asks: How many?');
    expect(stdout).toContain('Send these answers to web?\n  \n  Seats: 4\n');
    expect(stdout).toMatch(/✔ mcp__web__ask_form · web: ask_form .* · ok\n/);
    expect(code).toBe(0);
  });
});
