import type { IncomingMessage } from 'node:http';
import {
  fromJsonSchema,
  inputRequired,
  type JsonSchemaValidatorResult,
  type jsonSchemaValidator,
  type McpServer,
} from '@modelcontextprotocol/server';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectMcpServer,
  isMcpError,
  type McpServerConnection,
  type McpToolContext,
} from '../src/index.js';
import { type LoopbackHttpOptions, startLoopbackHttp } from './support/loopback-http.js';

// The Streamable HTTP client scenarios of @modelcontextprotocol/conformance
// (src/scenarios/client/request-metadata.ts, http-standard-headers.ts, http-custom-headers.ts,
// json-schema-ref-deref.ts, sse-retry.ts; see CONFORMANCE.md), checked through dsh's own
// connection and agent tools against the loopback server written with the SDK's server package.
// The server records what each request carried; the scenario and check ids are named per test.

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

interface Seen {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: { method?: string; id?: unknown; params?: Record<string, unknown> } | undefined;
  readonly at: number;
}

async function serve(options: LoopbackHttpOptions = {}) {
  const seen: Seen[] = [];
  const http = await startLoopbackHttp({
    ...options,
    onRequest: (req, body) => {
      seen.push({
        method: req.method ?? '',
        headers: req.headers,
        body: body as Seen['body'],
        at: Date.now(),
      });
    },
  });
  open.push(http);
  return { http, seen };
}

async function connect(
  url: string,
  era: 'auto' | 'legacy',
  answers: readonly ScriptedAnswer[] = [],
) {
  const interaction = createUserInteraction();
  interaction.registerProvider(createScriptedProvider({ answers }));
  const connection: McpServerConnection = await connectMcpServer(
    { name: 'loop', transport: 'http', url, headers: {} },
    { interaction, era, elicitation: { review: false } },
  );
  open.push(connection);
  const call = async (tool: string, args: object = {}) => {
    const context: McpToolContext = { signal: new AbortController().signal, toolCallId: 'c1' };
    const found = connection.tools.tools.find(
      (candidate) => candidate.name === `mcp__loop__${tool}`,
    );
    if (found === undefined) throw new Error(`no tool ${tool}`);
    return found.execute(args, context);
  };
  return { connection, call };
}

const text = (value: unknown) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(value) }],
});
// The server's own validator cannot compile a schema with a network $ref (the scenario's server
// does not validate either): it takes any arguments, so the schema reaches the client as written.
const ACCEPT_ALL: jsonSchemaValidator = {
  getValidator<T>() {
    return (data: unknown) =>
      ({ valid: true, data, errorMessage: undefined }) as JsonSchemaValidatorResult<T>;
  },
};
/** A tool input schema as JSON (with keywords such as `x-mcp-header` the SDK's type does not name). */
const jsonSchema = (schema: object, validator?: jsonSchemaValidator) =>
  fromJsonSchema(schema as Parameters<typeof fromJsonSchema>[0], validator);
const YES: ScriptedAnswer = { answers: { f0: { label: 'Yes' } } };

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

describe.each(['legacy', 'auto'] as const)(
  'conformance client scenario json-schema-ref-no-deref (SEP-2106), era %s',
  (era) => {
    it('never fetches a network $ref of a tool’s input schema, and passes it on unresolved', async () => {
      const canary: string[] = [];
      let origin = '';
      const { http } = await serve({
        route: (req, res) => {
          if (!req.url?.startsWith('/canary/')) return false;
          canary.push(req.url);
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"object"}');
          return true;
        },
        tools: (server) => {
          server.registerTool(
            'lookup_user',
            {
              description: 'Look up a user profile by id',
              inputSchema: jsonSchema(
                {
                  $schema: 'https://json-schema.org/draft/2020-12/schema',
                  type: 'object',
                  $defs: { userId: { type: 'string', pattern: '^[a-z0-9-]+$' } },
                  properties: {
                    id: { $ref: '#/$defs/userId' },
                    profile: { $ref: `${origin}/canary/profile-schema.json` },
                  },
                  required: ['id'],
                },
                ACCEPT_ALL,
              ),
            },
            async (args) => text({ id: (args as { id: string }).id }),
          );
        },
      });
      origin = http.origin;
      const { connection, call } = await connect(http.url, era);
      const tool = connection.tools.tools.find(
        (candidate) => candidate.name === 'mcp__loop__lookup_user',
      );
      expect(tool?.parameters).toMatchObject({
        properties: { profile: { $ref: `${http.origin}/canary/profile-schema.json` } },
      });
      expect((await call('lookup_user', { id: 'ada' })).output).toBe('{"id":"ada"}');
      expect(canary).toEqual([]);
    });
  },
);

describe('conformance client scenario sse-retry (SEP-1699), 2025 (removed in 2026-07-28)', {
  timeout: 60_000,
}, () => {
  it('after the server closes a call’s SSE stream, reconnects with Last-Event-ID no sooner than `retry`, and the call gets its result (client-sse-graceful-reconnect, -retry-timing, -last-event-id)', async () => {
    const retryInterval = 300;
    const { http, seen } = await serve({
      retryInterval,
      tools: (server) => {
        server.registerTool(
          'reconnect',
          { description: 'Closes its SSE stream, then answers.' },
          async (ctx) => {
            const closedAt = Date.now();
            ctx.http?.closeSSE?.();
            return text({ closedAt, closed: ctx.http?.closeSSE !== undefined });
          },
        );
      },
    });
    const { call } = await connect(http.url, 'legacy');
    const result = JSON.parse((await call('reconnect')).output) as {
      closedAt: number;
      closed: boolean;
    };
    expect(result.closed).toBe(true);
    const resumed = seen.filter(
      (request) => request.method === 'GET' && request.headers['last-event-id'] !== undefined,
    );
    expect(resumed.length).toBeGreaterThan(0);
    // The scenario allows 50 ms early for the scheduler; late is a load question, not checked here.
    expect((resumed[0]?.at ?? 0) - result.closedAt).toBeGreaterThanOrEqual(retryInterval - 50);
  });
});

describe('conformance client scenario sep-2322-client-request-state (SEP-2322), 2026-07-28, over HTTP', {
  timeout: 60_000,
}, () => {
  it('a result without resultType: never retried, and the call fails saying why (sep-2322-default-result-type-complete: the SDK differs)', async () => {
    // The scenario wants "complete" assumed; @modelcontextprotocol/client 2.4.0 refuses such a
    // result from a 2026-07-28 server ("servers implementing protocol revision 2026-07-28 MUST
    // include it"), and dsh-mcp reads results through it. What dsh guarantees: no retry, and a
    // stable code with the reason rather than a bare failure.
    let stripped = 0;
    const { http, seen } = await serve({
      tools: (server) => {
        server.registerTool('no_result_type', { description: 'Answers at once.' }, async () =>
          text('no-result-type-test-ok'),
        );
      },
      // The SDK's server always writes resultType; the scenario's server leaves it out.
      rewrite: (chunk) =>
        chunk.includes('no-result-type-test-ok')
          ? chunk.replace(/,"resultType":"complete"(?=})|"resultType":"complete",/g, (found) => {
              stripped++;
              return ' '.repeat(found.length);
            })
          : chunk,
    });
    const { call } = await connect(http.url, 'auto');
    const error = await call('no_result_type').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(stripped).toBe(1);
    expect(isMcpError(error, 'MCP_CALL_FAILED')).toBe(true);
    expect(String(error)).toContain(
      'sent a result that cannot be read: Invalid result for tools/call: missing required resultType',
    );
    const calls = seen.filter((request) => request.body?.method === 'tools/call');
    expect(calls).toHaveLength(1);
  });
});

describe('conformance client scenario initialize, 2025 over HTTP', { timeout: 60_000 }, () => {
  it('initializes with a version the server can take and its name, then sends MCP-Protocol-Version and the session on every request (mcp-client-initialization)', async () => {
    const { http, seen } = await serve();
    const { call } = await connect(http.url, 'legacy');
    expect((await call('echo', { text: 'hi' })).output).toBe('echo: hi');
    const posts = seen.filter((request) => request.method === 'POST');
    const [first, ...rest] = posts;
    expect(first?.body?.method).toBe('initialize');
    expect(['2025-06-18', '2025-11-25']).toContain(first?.body?.params?.protocolVersion);
    expect(first?.body?.params?.clientInfo).toEqual({ name: 'dsh', version: '0.1.0' });
    expect(first?.body?.params?.capabilities).toMatchObject({ elicitation: { form: {}, url: {} } });
    expect(rest.length).toBeGreaterThan(0);
    for (const { headers } of rest) {
      expect(headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(headers['mcp-session-id']).toEqual(expect.any(String));
    }
  });
});
