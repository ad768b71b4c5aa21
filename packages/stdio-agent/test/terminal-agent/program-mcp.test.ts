import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeWorkFolders, workFolder, writeScriptFile } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runProgram } from '../support/program-run.js';

// The loopback MCP server of dsh-mcp's tests, written with the SDK's own server package.
const SERVER = fileURLToPath(
  new URL('../../../mcp/test/fixtures/stdio-server.mjs', import.meta.url),
);

afterEach(removeWorkFolders);

function files(mcpServers: object) {
  const folder = workFolder('dsh-mcp-program-');
  const schema = JSON.stringify({
    type: 'object',
    properties: { env: { type: 'string', title: 'Environment', enum: ['staging', 'prod'] } },
    required: ['env'],
  });
  const script = {
    steps: [
      {
        text: 'Asking the server.',
        toolCalls: [
          {
            id: 'c1',
            name: 'mcp__loop__ask_form',
            arguments: { message: 'Where to deploy?', schema },
          },
        ],
      },
      { text: 'Done.' },
    ],
  };
  writeFileSync(join(folder, 'mcp.json'), JSON.stringify({ mcpServers }));
  return { script: writeScriptFile(folder, script), config: join(folder, 'mcp.json') };
}

describe('dsh-stdio-agent --mcp-config', () => {
  it('connects the server, asks approval for its tool, then asks its question here, naming it', async () => {
    const { script, config } = files({ loop: { command: process.execPath, args: [SERVER] } });
    const { code, stdout, stderr } = await runProgram(
      ['--script', script, '--mcp-config', config, '--no-history'],
      'deploy\ny\n2\n1\n',
    );
    expect(stderr).toMatch(/MCP server loop: connected, \d+ tools\n/);
    expect(stdout).toContain('? Allow this? loop: ask_form {"message":"Where to deploy?"');
    expect(stdout).toContain(
      'Always allow `ask_form` of the MCP server loop while it stays as it is now',
    );
    expect(stdout).toContain('MCP server loop\n? Environment\n  loop asks: Where to deploy?\n');
    expect(stdout).toContain('✔ Environment · prod\n');
    expect(stdout).toContain('Send these answers to loop?\n  \n  Environment: prod\n');
    expect(stdout).toMatch(/✔ mcp__loop__ask_form · loop: ask_form .* · ok\n/);
    expect(code).toBe(0);
  });

  it("--mcp-trust-read-only runs a named server's read-only tool unasked; without it, it asks", async () => {
    const folder = workFolder('dsh-mcp-program-');
    const config = join(folder, 'mcp.json');
    const call = { id: 'c1', name: 'mcp__loop__echo', arguments: { text: 'hi' } };
    const script = writeScriptFile(folder, { steps: [{ toolCalls: [call] }, { text: 'Done.' }] });
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { loop: { command: process.execPath, args: [SERVER] } } }),
    );
    const base = ['--script', script, '--mcp-config', config, '--no-history'];
    const trusted = await runProgram([...base, '--mcp-trust-read-only', 'other, loop'], 'go\n');
    expect(trusted.stdout).not.toContain('Allow this?');
    expect(trusted.stdout).toContain('✔ mcp__loop__echo · loop: Echo {"text":"hi"} · ok\n');
    expect(trusted.code).toBe(0);
    // Another server named, or none: the hint alone never skips the approval.
    const untrusted = await runProgram([...base, '--mcp-trust-read-only', 'other'], 'go\nn\n');
    expect(untrusted.stdout).toContain('? Allow this? loop: Echo {"text":"hi"}');
  });

  it("gives the server's question the person's --timeout, shown with it", async () => {
    const { script, config } = files({ loop: { command: process.execPath, args: [SERVER] } });
    const { code, stdout } = await runProgram(
      ['--script', script, '--mcp-config', config, '--no-history', '--timeout', '90s'],
      'deploy\ny\n2\n1\n',
    );
    expect(stdout).toContain('MCP server loop\n? Environment\n  loop asks: Where to deploy?\n');
    expect(stdout).toContain(
      '  2. prod\n1:30 left to answer: then it is withdrawn, unanswered.\nChoose 1-2: 2\n',
    );
    expect(code).toBe(0);
  });

  it('says which server did not connect and why, and goes on without it', async () => {
    const { script, config } = files({ gone: { command: '/nonexistent/mcp-server' } });
    const { stderr } = await runProgram(
      ['--script', script, '--mcp-config', config, '--no-history'],
      '',
    );
    expect(stderr).toContain(
      'MCP server gone: not connected (The MCP server "gone" did not connect: ',
    );
  });

  it('refuses a configuration it cannot read, naming the field (exit 2)', async () => {
    const { script, config } = files({ bad: { type: 'sse', url: 'https://x.example/sse' } });
    const { code, stderr } = await runProgram(['--script', script, '--mcp-config', config], '');
    expect(code).toBe(2);
    expect(stderr).toContain('--mcp-config: mcpServers: mcpServers.bad.type is "sse"');
  });
});
