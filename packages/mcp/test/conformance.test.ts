import { fileURLToPath } from 'node:url';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectMcpServer,
  type McpServerConfig,
  type McpServerConnection,
  type McpToolContext,
} from '../src/index.js';
import { STDIO_SERVER } from './support/loopback.js';

// What the client scenarios of @modelcontextprotocol/conformance check
// (src/scenarios/client/*.ts), run against loopback servers written with the SDK's server
// package, through dsh's own connection and tools, over stdio. The scenario and check ids are
// named in each test; CONFORMANCE.md maps every client scenario to its test (the HTTP ones are
// in conformance-headers.test.ts and conformance-http.test.ts) or says why it is out of scope.

// @ts-expect-error: the fixture is plain JavaScript
const { RICH_SCHEMA } = await import('./fixtures/rich-schema.mjs');

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const MRTR: McpServerConfig = {
  name: 'mrtr',
  transport: 'stdio',
  command: process.execPath,
  args: [fixture('mrtr-server.mjs')],
  env: {},
};
const LOOP: McpServerConfig = {
  name: 'loop',
  transport: 'stdio',
  command: STDIO_SERVER.command,
  args: STDIO_SERVER.args,
  env: {},
};

const open: McpServerConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connect(
  config: McpServerConfig,
  era: 'auto' | 'legacy',
  answers: readonly ScriptedAnswer[] = [],
) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers });
  interaction.registerProvider(provider);
  const connection = await connectMcpServer(config, {
    interaction,
    era,
    elicitation: { review: false },
  });
  open.push(connection);
  const call = async (tool: string, args: object = {}) => {
    const context: McpToolContext = { signal: new AbortController().signal, toolCallId: tool };
    const found = connection.tools.tools.find(
      (candidate) => candidate.name === `mcp__${config.name}__${tool}`,
    );
    const result = await found?.execute(args, context);
    return result?.output ?? '';
  };
  return { connection, provider, call };
}

const YES: ScriptedAnswer = { answers: { f0: { label: 'Yes' } } };

describe.each([
  ['2025 (initialize)', 'legacy'],
  ['2026-07-28 (server/discover)', 'auto'],
] as const)('conformance client scenarios, %s', { timeout: 60_000 }, (_era, era) => {
  it('initialize: connects on the era the server speaks, and lists the tools (scenario initialize)', async () => {
    const { connection } = await connect(MRTR, era);
    expect(connection.client.getProtocolEra()).toBe(era === 'legacy' ? 'legacy' : 'modern');
    expect(connection.client.getServerVersion()).toMatchObject({ name: 'mrtr' });
    expect(connection.tools.tools.map((tool) => tool.name)).toContain('mcp__mrtr__add_numbers');
    // The server saw who the client is and that it answers forms and URLs (mcp-client-initialization).
    const { call } = await connect(MRTR, era);
    const seen = JSON.parse(await call('client_info'));
    const said = era === 'legacy' ? seen.initialize : seen.envelope;
    expect(JSON.stringify(said)).toContain('{"name":"dsh","version":"0.1.0"}');
    expect(JSON.stringify(said)).toContain('"elicitation":{"form":{},"url":{}}');
  });

  it('json-schema-2020-12-preservation: the model gets a tool’s input schema with every 2020-12 keyword kept (SEP-1613, SEP-2106)', async () => {
    const { connection } = await connect(MRTR, era);
    const rich = connection.tools.tools.find(
      (tool) => tool.name === 'mcp__mrtr__json_schema_2020_12_tool',
    );
    expect(rich?.parameters).toEqual(RICH_SCHEMA);
  });

  it('tools_call: add_numbers with two numbers gives their sum (check tool-add-numbers)', async () => {
    const { call } = await connect(MRTR, era);
    expect(await call('add_numbers', { a: 5, b: 3 })).toBe('The sum of 5 and 3 is 8');
  });

  it('elicitation-sep1034-client-defaults: every default is the recommended option, and taken, it is sent (SEP-1034 string, integer, number, enum, boolean)', async () => {
    // The scenario's own schema; every field optional, each with a default.
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: {
          type: 'string',
          description: 'User status',
          enum: ['active', 'inactive', 'pending'],
          default: 'active',
        },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
      required: [],
    };
    const taken = [
      'Use the default: John Doe',
      'Use the default: 30',
      'Use the default: 95.5',
      'active',
      'Yes',
    ];
    const answers = Object.fromEntries(taken.map((label, index) => [`f${index}`, { label }]));
    const { call, provider } = await connect(LOOP, era, [{ answers }]);
    const output = await call('ask_form', {
      message: 'Test client default value handling - please accept with defaults',
      schema: JSON.stringify(schema),
    });
    expect(JSON.parse(output)).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    });
    // What Enter picks in the terminal: the recommended option of each question.
    const recommended = provider.batches[0]?.questions.map(
      (question) => question.options?.find((option) => option.recommended)?.label,
    );
    expect(recommended).toEqual(taken);
  });
});

describe('version negotiation (request-metadata sep-2575-client-retry-supported-version)', {
  timeout: 60_000,
}, () => {
  it('falls back to the 2025 handshake with a server that speaks only 2025, and works there', async () => {
    const legacyOnly: McpServerConfig = { ...LOOP, args: [fixture('legacy-stdio-server.mjs')] };
    const { connection, call } = await connect(legacyOnly, 'auto');
    expect(connection.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(await call('echo', { text: 'hi' })).toBe('echo: hi');
  });
});

describe('conformance client scenario sep-2322-client-request-state (mrtr-client.ts, SEP-2322), 2026-07-28', {
  timeout: 60_000,
}, () => {
  it('echoes requestState byte for byte, on a new JSON-RPC id (sep-2322-client-request-state-echoed, -jsonrpc-id-different)', async () => {
    const { call } = await connect(MRTR, 'auto', [YES]);
    expect(JSON.parse(await call('echo_state', { tag: 'a' }))).toEqual({
      tag: 'a',
      echoed: true,
      newId: true,
      answer: { action: 'accept', content: { confirmed: true } },
    });
  });

  it('sends no requestState when the server gave none (sep-2322-client-no-state-omitted)', async () => {
    const { call } = await connect(MRTR, 'auto', [YES]);
    expect(JSON.parse(await call('no_state'))).toEqual({ requestState: null });
  });

  it('never carries one call’s answers or state into another: an unrelated call while a round waits, and two rounds at once (sep-2322-client-parallel-isolation)', async () => {
    const { call, provider } = await connect(MRTR, 'auto');
    const held = provider.hold();
    const waiting = call('echo_state', { tag: 'a' });
    const question = await held;
    expect(JSON.parse(await call('unrelated'))).toEqual({
      inputResponses: null,
      requestState: null,
    });
    question.answer(YES);
    expect(JSON.parse(await waiting)).toMatchObject({ tag: 'a', echoed: true, newId: true });

    provider.enqueue(YES, { answers: { f0: { label: 'No' } } });
    const [b, c] = await Promise.all([
      call('echo_state', { tag: 'b' }),
      call('echo_state', { tag: 'c' }),
    ]);
    const results = [JSON.parse(b), JSON.parse(c)];
    expect(results.map((result) => [result.tag, result.echoed, result.newId])).toEqual([
      ['b', true, true],
      ['c', true, true],
    ]);
    // Each answer went to the call that asked it, whichever was asked first.
    expect(results.map((result) => result.answer.content.confirmed).sort()).toEqual([false, true]);
  });
});
