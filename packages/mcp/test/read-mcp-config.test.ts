// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the configuration syntax under test
import { describe, expect, it } from 'vitest';
import { isMcpError, readMcpConfig } from '../src/index.js';

function refusal(config: unknown, variables: Record<string, string> = {}): string {
  try {
    readMcpConfig(config, { variables });
  } catch (error) {
    if (isMcpError(error, 'MCP_CONFIG_INVALID')) return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('readMcpConfig', () => {
  it('reads the mcpServers people already have: Claude, Cursor and Gemini spellings', () => {
    const text = JSON.stringify({
      mcpServers: {
        files: {
          command: 'npx',
          args: ['-y', 'server-files', '${HOME}'],
          env: { TOKEN: '${TOKEN:-none}' },
        },
        claude: {
          type: 'http',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer ${KEY}' },
        },
        cursor: { url: 'http://127.0.0.1:3000/mcp' },
        gemini: { httpUrl: 'https://g.example.com/mcp', headers: {} },
        off: { command: 'x', disabled: true },
      },
    });
    expect(readMcpConfig(text, { variables: { HOME: '/home/ada', KEY: 'k1' } })).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'server-files', '/home/ada'],
        env: { TOKEN: 'none' },
      },
      {
        name: 'claude',
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer k1' },
      },
      { name: 'cursor', transport: 'http', url: 'http://127.0.0.1:3000/mcp', headers: {} },
      { name: 'gemini', transport: 'http', url: 'https://g.example.com/mcp', headers: {} },
    ]);
  });

  it('refuses what it cannot run, naming the field', () => {
    expect(refusal('{')).toBe('mcpServers: the configuration is not JSON');
    expect(refusal({ mcpServers: { a: { type: 'sse', url: 'https://x/sse' } } })).toContain(
      'mcpServers.a.type is "sse"',
    );
    expect(refusal({ mcpServers: { a: {} } })).toContain('needs a "command" (stdio) or a "url"');
    expect(refusal({ mcpServers: { a: { command: 'x', args: [1] } } })).toBe(
      'mcpServers: mcpServers.a.args[0] must be text',
    );
    expect(refusal({ mcpServers: { a: { url: 'file:///etc/passwd' } } })).toContain(
      'must be an http or https address',
    );
    expect(refusal({ mcpServers: { 'a:b': { command: 'x' } } })).toContain(
      'needs a name of letters',
    );
    expect(refusal({ mcpServers: { a: { command: 'x', env: { K: '${MISSING}' } } } })).toBe(
      'mcpServers: mcpServers.a.env.K uses ${MISSING}, which is not set',
    );
  });

  it('reads an empty configuration as no servers', () => {
    expect(readMcpConfig({})).toEqual([]);
    expect(readMcpConfig({ mcpServers: {} })).toEqual([]);
  });
});
