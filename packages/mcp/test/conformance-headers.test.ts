import { inputRequired, type McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOpened, connect, jsonSchema, serve, text, YES } from './support/conformance-http.js';

// The header client scenarios of @modelcontextprotocol/conformance over Streamable HTTP
// (src/scenarios/client/request-metadata.ts, http-standard-headers.ts, http-custom-headers.ts;
// see CONFORMANCE.md), checked through dsh's own connection and agent tools (a 2026-07-28
// call's rounds driven by dsh-mcp) against the loopback server written with the SDK's server
// package, which records what each request carried. Check ids are named per test.

afterEach(closeOpened);

/** A tool whose arguments are mirrored into `Mcp-Param-*` headers (SEP-2243), asking once first on 2026-07-28. */
function headerTool(server: McpServer, era: 'legacy' | 'modern'): void {
  const schema = {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      non_ascii: { type: 'string', 'x-mcp-header': 'NonAscii' },
      padded: { type: 'string', 'x-mcp-header': 'Padded' },
      query: { type: 'string' },
    },
    required: ['region', 'query'],
  };
  server.registerTool(
    'route',
    { description: 'Mirrors arguments into headers.', inputSchema: jsonSchema(schema) },
    async (_args, ctx) => {
      if (era === 'modern' && ctx.mcpReq.inputResponses === undefined)
        return inputRequired({
          inputRequests: {
            go: inputRequired.elicit({
              message: 'Go?',
              requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } },
            }),
          },
        });
      return text('routed');
    },
  );
  // Invalid: a header name with a space (sep-2243-x-mcp-header-charset).
  server.registerTool(
    'bad_header',
    {
      description: 'Declares a header name no HTTP header can carry.',
      inputSchema: jsonSchema({
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Bad Name' } },
      }),
    },
    async () => text('should never run'),
  );
}
describe('conformance client scenario request-metadata (SEP-2575) and http-standard-headers (SEP-2243), 2026-07-28', {
  timeout: 60_000,
}, () => {
  it('sends MCP-Protocol-Version, Mcp-Method and Mcp-Name on every POST, matching the body and its _meta, a retried round too', async () => {
    const { http, seen } = await serve({ tools: headerTool });
    const { call } = await connect(http.url, 'auto', [YES]);
    expect((await call('echo', { text: 'hi' })).output).toBe('echo: hi');
    expect((await call('route', { region: 'us-west1', query: 'q' })).output).toBe('"routed"');
    const posts = seen.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.body?.method)).toEqual(
      expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']),
    );
    for (const { headers, body } of posts) {
      // sep-2575-http-client-sends-version-header, sep-2243-client-includes-standard-headers
      expect(headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(headers['mcp-method']).toBe(body?.method);
      if (body?.id === undefined) continue;
      // sep-2575-client-populates-meta, -client-sends-client-info, -http-version-header-matches-meta,
      // -client-declares-elicitation-capability
      const meta = body.params?._meta as Record<string, unknown> | undefined;
      expect(meta?.['io.modelcontextprotocol/protocolVersion']).toBe(
        headers['mcp-protocol-version'],
      );
      expect(meta?.['io.modelcontextprotocol/clientInfo']).toEqual({
        name: 'dsh',
        version: '0.1.0',
      });
      expect(meta?.['io.modelcontextprotocol/clientCapabilities']).toMatchObject({
        elicitation: { form: {}, url: {} },
      });
    }
    const calls = posts.filter((request) => request.body?.method === 'tools/call');
    expect(calls.map((request) => request.headers['mcp-name'])).toEqual(['echo', 'route', 'route']);
  });
});

describe('conformance client scenario http-custom-headers and http-invalid-tool-headers (SEP-2243), 2026-07-28', {
  timeout: 60_000,
}, () => {
  it('mirrors x-mcp-header arguments into Mcp-Param headers, encoded, on the first call and its retry (sep-2243-client-mirrors-designated-params, -encode-values, -base64-unsafe, -omit-null)', async () => {
    const { http, seen } = await serve({ tools: headerTool });
    const { call } = await connect(http.url, 'auto', [YES]);
    const args = {
      region: 'us-west1',
      priority: 42,
      non_ascii: 'Hello, 世界',
      padded: ' padded ',
      query: 'SELECT 1',
    };
    expect((await call('route', args)).output).toBe('"routed"');
    const calls = seen.filter((request) => request.body?.method === 'tools/call');
    expect(calls).toHaveLength(2);
    for (const { headers } of calls) {
      const params = Object.fromEntries(
        Object.entries(headers).filter(([name]) => name.startsWith('mcp-param-')),
      );
      expect(params).toEqual({
        'mcp-param-region': 'us-west1',
        'mcp-param-priority': '42',
        'mcp-param-nonascii': `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`,
        'mcp-param-padded': `=?base64?${Buffer.from(' padded ').toString('base64')}?=`,
      });
    }
  });

  it('never offers the model a tool whose x-mcp-header is invalid (sep-2243-client-reject-invalid-tool)', async () => {
    const { http } = await serve({ tools: headerTool });
    const { connection } = await connect(http.url, 'auto');
    const names = connection.tools.tools.map((tool) => tool.name);
    expect(names).toContain('mcp__loop__route');
    expect(names).not.toContain('mcp__loop__bad_header');
  });
});
