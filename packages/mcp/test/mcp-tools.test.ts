import { getEventListeners } from 'node:events';
import type { AgentTool } from 'dsh-agent';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectMcpServer,
  connectMcpServers,
  isMcpError,
  type McpAgentTool,
  type McpToolContext,
} from '../src/index.js';
import { loopStdioConfig, loopTool } from './support/loopback.js';
import { startLoopbackHttp } from './support/loopback-http.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

function context(signal = new AbortController().signal): McpToolContext {
  return { signal, toolCallId: 'call-1', agent: { id: 'agent-1' } };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

// An MCP tool is an agent tool as dsh-agent defines it (a compile-time check).
const fits = (candidate: McpAgentTool): AgentTool => candidate;

describe.each(['auto', 'legacy'] as const)('a stdio server, era %s', (era) => {
  it('offers its tools under prefixed names, described as `other`, and runs them', async () => {
    const connection = await connectMcpServer(loopStdioConfig(), { era });
    open.push(connection);
    // `auto` finds the loopback's 2026-07-28 side; `legacy` keeps the 2025 handshake.
    expect(connection.client.getNegotiatedProtocolVersion()).toBe(
      era === 'auto' ? '2026-07-28' : '2025-11-25',
    );
    expect(connection.tools.tools.map((candidate) => candidate.name)).toContain('mcp__loop__echo');
    const echo = fits(loopTool(connection, 'echo'));
    expect(echo.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
    expect(loopTool(connection, 'echo').describe({ text: 'hi' })).toEqual({
      kind: 'other',
      title: 'loop: Echo {"text":"hi"}',
    });
    expect(await loopTool(connection, 'echo').execute({ text: 'hi' }, context())).toEqual({
      ok: true,
      output: 'echo: hi',
    });
    expect(connection.tools.info('mcp__loop__echo')?.digest).toMatch(/^[0-9a-f]{16}$/);
  });

  it('leaves no listener on the turn signal and no call behind, after many calls', async () => {
    const connection = await connectMcpServer(loopStdioConfig(), { era });
    open.push(connection);
    const turn = new AbortController();
    for (let index = 0; index < 100; index++) {
      await loopTool(connection, index % 2 === 0 ? 'echo' : 'fail').execute(
        { text: 'x' },
        context(turn.signal),
      );
    }
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    expect(connection.tools.callContext()).toBeUndefined();
  });

  it('gives a tool failure as an error result with MCP_TOOL_ERROR', async () => {
    const connection = await connectMcpServer(loopStdioConfig(), { era });
    open.push(connection);
    expect(await loopTool(connection, 'fail').execute({}, context())).toEqual({
      ok: false,
      output: 'it broke',
      error: { name: 'McpError', code: 'MCP_TOOL_ERROR', message: 'it broke' },
    });
  });

  it('ends a call to a server that crashes with MCP_SERVER_CLOSED, its stderr in the log', async () => {
    const log: string[] = [];
    const connection = await connectMcpServer(loopStdioConfig(), {
      era,
      log: (line) => log.push(line),
    });
    open.push(connection);
    const error = await failure(loopTool(connection, 'crash').execute({}, context()));
    expect(isMcpError(error, 'MCP_SERVER_CLOSED')).toBe(true);
    expect(log).toContain('[loop] crashing on purpose');
    // Later calls fail the same way at once.
    expect(
      isMcpError(
        await failure(loopTool(connection, 'echo').execute({ text: 'x' }, context())),
        'MCP_SERVER_CLOSED',
      ),
    ).toBe(true);
  });

  it('gives up a call to a server that hangs with MCP_SERVER_TIMEOUT', async () => {
    const connection = await connectMcpServer(loopStdioConfig(), { era, idleTimeoutMs: 50 });
    open.push(connection);
    const error = await failure(loopTool(connection, 'hang').execute({}, context()));
    expect(isMcpError(error, 'MCP_SERVER_TIMEOUT')).toBe(true);
  });

  it('cancels a running call with the turn (MCP_CALL_CANCELLED)', async () => {
    const connection = await connectMcpServer(loopStdioConfig(), { era });
    open.push(connection);
    const stop = new AbortController();
    const call = failure(loopTool(connection, 'hang').execute({}, context(stop.signal)));
    stop.abort();
    expect(isMcpError(await call, 'MCP_CALL_CANCELLED')).toBe(true);
  });

  it('routes a question asked during a call to that call, the server named', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({
      answers: [{ answers: { f0: { label: 'Yes' } } }, { label: 'Send' }],
    });
    interaction.registerProvider(provider);
    const connection = await connectMcpServer(loopStdioConfig(), { era, interaction });
    open.push(connection);
    const schema = JSON.stringify({
      type: 'object',
      properties: { go: { type: 'boolean' } },
      required: ['go'],
    });
    const result = await loopTool(connection, 'ask_form').execute(
      { message: 'Deploy?', schema },
      context(),
    );
    expect(result).toEqual({ ok: true, output: '{"action":"accept","content":{"go":true}}' });
    expect(provider.batches[0]?.agent).toEqual({ id: 'agent-1' });
    expect(provider.batches[0]?.header).toBe('MCP server loop');
  });

  it('honours tools/list_changed: a new tool appears, and a tool gone fails with MCP_TOOL_GONE', async () => {
    let changes = 0;
    const connection = await connectMcpServer(loopStdioConfig(), {
      era,
      onToolsChange: () => changes++,
    });
    open.push(connection);
    await loopTool(connection, 'add_tool').execute({}, context());
    await expect
      .poll(() => connection.tools.tools.map((candidate) => candidate.name))
      .toContain('mcp__loop__added');
    expect(changes).toBeGreaterThan(0);
    expect(await loopTool(connection, 'added').execute({}, context())).toEqual({
      ok: true,
      output: 'added ran',
    });
    const echo = loopTool(connection, 'echo');
    connection.tools.update([]);
    expect(isMcpError(await failure(echo.execute({ text: 'x' }, context())), 'MCP_TOOL_GONE')).toBe(
      true,
    );
  });
});

describe.each(['auto', 'legacy'] as const)(
  'a Streamable HTTP server on 127.0.0.1, era %s',
  (era) => {
    it('runs a tool and answers a form asked during the call', async () => {
      const http = await startLoopbackHttp();
      open.push(http);
      const interaction = createUserInteraction();
      const provider = createScriptedProvider({
        answers: [{ answers: { f0: { custom: '7' } } }, { label: 'Send' }],
      });
      interaction.registerProvider(provider);
      const connection = await connectMcpServer(
        { name: 'loop', transport: 'http', url: http.url, headers: { 'x-test': '1' } },
        { era, interaction },
      );
      open.push(connection);
      expect(await loopTool(connection, 'echo').execute({ text: 'over http' }, context())).toEqual({
        ok: true,
        output: 'echo: over http',
      });
      const schema = JSON.stringify({
        type: 'object',
        properties: { n: { type: 'integer' } },
        required: ['n'],
      });
      expect(
        await loopTool(connection, 'ask_form').execute({ message: 'How many?', schema }, context()),
      ).toEqual({
        ok: true,
        output: '{"action":"accept","content":{"n":7}}',
      });
    });
  },
);

describe('connecting several servers', () => {
  it('connects the good ones and reports each failure with its reason', async () => {
    const status = await connectMcpServers(
      [
        loopStdioConfig(),
        {
          name: 'missing',
          transport: 'stdio',
          command: '/nonexistent/mcp-server',
          args: [],
          env: {},
        },
      ],
      { era: 'legacy' },
    );
    open.push(status);
    expect(status.connections.map((connection) => connection.name)).toEqual(['loop']);
    expect(status.failures.map((failure) => [failure.name, failure.error.code])).toEqual([
      ['missing', 'MCP_CONNECT_FAILED'],
    ]);
    expect(status.lines[0]).toMatch(/^MCP server loop: connected, \d+ tools$/);
    expect(status.lines[1]).toMatch(
      /^MCP server missing: not connected \(The MCP server "missing" did not connect: /,
    );
  });
});
