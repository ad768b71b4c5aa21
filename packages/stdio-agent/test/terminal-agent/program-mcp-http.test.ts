import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runProgram } from '../support/program-run.js';

// dsh-mcp's loopback Streamable HTTP server (written with the SDK's server package), in a process
// of its own, named by `url` in the configuration people already have.
const HTTP_SERVER = fileURLToPath(
  new URL('../../../mcp/test/fixtures/http-server.mjs', import.meta.url),
);

const folders: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function httpServer(): Promise<string> {
  const child = spawn(process.execPath, [HTTP_SERVER], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const [url] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return url;
}

describe('dsh-stdio-agent --mcp-config, a Streamable HTTP server', () => {
  it('connects it, asks approval for its tool, runs it, then asks its question here, naming it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'dsh-mcp-http-'));
    folders.push(folder);
    const schema = JSON.stringify({
      type: 'object',
      properties: { seats: { type: 'integer', title: 'Seats', minimum: 1 } },
      required: ['seats'],
    });
    const script = {
      steps: [
        {
          text: 'Asking the server.',
          toolCalls: [
            { id: 'c1', name: 'mcp__web__ask_form', arguments: { message: 'How many?', schema } },
          ],
        },
        { text: 'Done.' },
      ],
    };
    writeFileSync(join(folder, 'script.json'), JSON.stringify(script));
    const url = await httpServer();
    writeFileSync(
      join(folder, 'mcp.json'),
      JSON.stringify({ mcpServers: { web: { url, headers: { 'x-team': 'a' } } } }),
    );
    const { code, stdout, stderr } = await runProgram(
      [
        '--script',
        join(folder, 'script.json'),
        '--mcp-config',
        join(folder, 'mcp.json'),
        '--no-history',
      ],
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
