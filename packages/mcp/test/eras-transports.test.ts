import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ConnectMcpServerOptions,
  connectMcpServer,
  isMcpError,
  type McpServerConfig,
  type McpServerConnection,
} from '../src/index.js';
import {
  EVERY_LIST_TYPE,
  EVERY_TYPE_ANSWER,
  EVERY_TYPE_CONTENT,
  EVERY_TYPE as FLAT_TYPES,
} from './support/every-type.js';
import { startHttpServerProcess, stopHttpServerProcesses } from './support/http-server-process.js';
import { loopStdioConfig, loopToolCaller } from './support/loopback.js';

// Issue 33's "Done when", through dsh's own connection and agent tools (the path both programs
// take, with a 2026-07-28 call's rounds driven by dsh-mcp), against the loopback server written
// with the SDK's server package, in each era and over each transport: every field type, decline
// versus cancel, URL consent, a crash and a hang. The HTTP server runs in a process of its own,
// so that a crash is a real server going away.

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
  stopHttpServerProcesses();
});

type Transport = 'stdio' | 'http';

async function config(transport: Transport): Promise<McpServerConfig> {
  if (transport === 'http')
    return { name: 'loop', transport, url: await startHttpServerProcess(), headers: {} };
  return loopStdioConfig();
}

async function connect(
  transport: Transport,
  era: 'auto' | 'legacy',
  answers: readonly ScriptedAnswer[] = [],
  options: ConnectMcpServerOptions = {},
) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers });
  interaction.registerProvider(provider);
  const connection: McpServerConnection = await connectMcpServer(await config(transport), {
    interaction,
    era,
    ...options,
    elicitation: { review: false, ...options.elicitation },
  });
  open.push(connection);
  expect(connection.client.getNegotiatedProtocolVersion()).toBe(
    era === 'auto' ? '2026-07-28' : '2025-11-25',
  );
  const call = loopToolCaller(connection);
  const form = async (schema: object) => {
    const result = await call('ask_form', { message: 'Tell me', schema: JSON.stringify(schema) });
    return JSON.parse(result.output) as unknown;
  };
  return { connection, provider, call, form };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

// Every flat field type and both kinds of list, in one form.
const EVERY_TYPE = {
  ...FLAT_TYPES,
  properties: { ...FLAT_TYPES.properties, ...EVERY_LIST_TYPE.properties },
  required: [...FLAT_TYPES.required, 'tags'],
};

describe.each([
  ['stdio', 'legacy'],
  ['stdio', 'auto'],
  ['http', 'legacy'],
  ['http', 'auto'],
] as const)('over %s, era %s', { timeout: 60_000 }, (transport, era) => {
  it('asks a form of every field type and sends the typed values', async () => {
    // Ten questions at once (askAll), then the two lists.
    const { form, provider } = await connect(transport, era, [
      EVERY_TYPE_ANSWER,
      { answers: { f0: { labels: ['Alpha', 'Beta'] }, f1: { labels: ['y'] } } },
    ]);
    expect(await form(EVERY_TYPE)).toEqual({
      action: 'accept',
      content: {
        ...EVERY_TYPE_CONTENT,
        tags: ['a', 'b'],
        plain: ['y'],
      },
    });
    expect(provider.batches.map((batch) => batch.header)).toEqual([
      'MCP server loop',
      'MCP server loop',
    ]);
    expect(provider.batches[1]?.questions.map((question) => question.multiSelect)).toEqual([
      true,
      true,
    ]);
  });

  it('keeps decline and cancel distinct', async () => {
    const { form } = await connect(transport, era, [
      { error: 'ASK_DECLINED' },
      { error: 'ASK_CANCELLED' },
    ]);
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    expect(await form(schema)).toEqual({ action: 'decline' });
    expect(await form(schema)).toEqual({ action: 'cancel' });
  });

  it('asks consent for a URL, never opening it before, and opens it after', async () => {
    const opened: string[] = [];
    const { call, provider } = await connect(
      transport,
      era,
      [{ label: 'Decline' }, { label: 'Open in my browser' }],
      {
        elicitation: {
          openUrl: (url) => {
            opened.push(url);
          },
        },
      },
    );
    const url = 'https://login.example.com/oauth/authorize?state=1';
    expect(JSON.parse((await call('ask_url', { url })).output)).toMatchObject({
      action: 'decline',
    });
    expect(opened).toEqual([]);
    expect(JSON.parse((await call('ask_url', { url })).output)).toMatchObject({ action: 'accept' });
    expect(opened).toEqual([url]);
    const question = provider.requests[0]?.question ?? '';
    expect(question).toContain('Domain: login.example.com');
    expect(question).toContain(`Full address: ${url}`);
  });

  it('ends a call to a server that crashes with MCP_SERVER_CLOSED, and later calls too', async () => {
    const { call } = await connect(transport, era);
    const error = await failure(call('crash'));
    expect(isMcpError(error, 'MCP_SERVER_CLOSED'), String(error)).toBe(true);
    const later = await failure(call('echo', { text: 'x' }));
    expect(isMcpError(later, 'MCP_SERVER_CLOSED'), String(later)).toBe(true);
  });

  it('gives up a call to a server that hangs with MCP_SERVER_TIMEOUT, and goes on', async () => {
    // Long enough that a loaded machine's echo is not taken for silence.
    const { call } = await connect(transport, era, [], { idleTimeoutMs: 1_000 });
    const error = await failure(call('hang'));
    expect(isMcpError(error, 'MCP_SERVER_TIMEOUT'), String(error)).toBe(true);
    expect(await call('echo', { text: 'still here' })).toEqual({
      ok: true,
      output: 'echo: still here',
    });
  });
});
