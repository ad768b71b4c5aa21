import { fileURLToPath } from 'node:url';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import { connectMcpServer, type McpServerConfig, type McpToolContext } from '../src/index.js';

// A 2026-07-28 server asks in `input_required` rounds; the call drives them itself (the SDK's
// manual mode), storing each round before it is asked, and goes on from a stored round.

const ROUNDS_SERVER: McpServerConfig = {
  name: 'rounds',
  transport: 'stdio',
  command: process.execPath,
  args: [fileURLToPath(new URL('./fixtures/rounds-server.mjs', import.meta.url))],
  env: { LOOPBACK_STATE_KEY: 'a-key-of-the-test-that-is-32-bytes!' },
};

const LEGACY_SERVER: McpServerConfig = {
  name: 'rounds',
  transport: 'stdio',
  command: process.execPath,
  args: [fileURLToPath(new URL('./fixtures/stdio-server.mjs', import.meta.url))],
  env: {},
};

function asking(answers: readonly ScriptedAnswer[]) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers });
  interaction.registerProvider(provider);
  return { interaction, provider };
}

/** A call's context as the agent gives it, recording what `recordPending` stores. */
function callContext(extra: Partial<McpToolContext> = {}) {
  const stored: string[] = [];
  const context: McpToolContext = {
    signal: new AbortController().signal,
    toolCallId: 'w1',
    recordPending: async (state) => void stored.push(state),
    ...extra,
  };
  return { context, stored };
}

const WIPE = 'mcp__rounds__wipe';

// Each test starts two to four server processes (the era probe starts one more per connection).
describe('a 2026-07-28 call that asks in rounds', { timeout: 60_000 }, () => {
  it('stores each round (server, tool, questions, requestState; no answer) before it is asked, then sends the answers with the requestState', async () => {
    const { interaction, provider } = asking([
      { answers: { f0: { label: 'Yes' } } },
      { label: 'Send' },
      { answers: { f0: { label: 'sessions' } } },
      { label: 'Send' },
    ]);
    await using connection = await connectMcpServer(ROUNDS_SERVER, { interaction });
    expect(connection.client.getProtocolEra()).toBe('modern');
    const tool = connection.tools.tools.find((candidate) => candidate.name === WIPE);
    const storedWhenAsked: number[] = [];
    const { context, stored } = callContext();
    const watched: McpToolContext = {
      ...context,
      recordPending: async (state) => {
        await context.recordPending?.(state);
        storedWhenAsked.push(provider.batches.length);
      },
    };
    const result = await tool?.execute({ cache: 'cache-a' }, watched);
    expect(result).toEqual({ ok: true, output: 'Wiped sessions of cache-a' });
    // Each round was stored before its question reached the UI.
    expect(storedWhenAsked).toEqual([0, 1]);
    const rounds = stored.map((state) => JSON.parse(state));
    expect(rounds[0]).toMatchObject({
      v: 1,
      server: 'rounds',
      tool: 'wipe',
      inputRequests: {
        confirm: { method: 'elicitation/create', params: { message: 'Really wipe cache-a?' } },
      },
    });
    expect(rounds[0].requestState).toBeUndefined();
    expect(rounds[1].inputRequests.scope.params.message).toBe('Which scope?');
    expect(typeof rounds[1].requestState).toBe('string');
    // Never an answer of the person's.
    expect(stored.join('\n')).not.toMatch(/"action"|"content"|inputResponses/);
    expect(provider.batches[0]?.header).toBe('MCP server rounds');
  });

  it('goes on from a stored round after a stop, on a new connection to a new server process: asks again, retries, and gets the result', async () => {
    // The first program: asked, confirmed, then stopped while the scope question waited.
    const first = asking([{ answers: { f0: { label: 'Yes' } } }, { label: 'Send' }]);
    const firstConnection = await connectMcpServer(ROUNDS_SERVER, {
      interaction: first.interaction,
    });
    const stopped = new AbortController();
    const { context, stored } = callContext({ signal: stopped.signal });
    const firstCall = firstConnection.tools.tools
      .find((candidate) => candidate.name === WIPE)
      ?.execute(
        { cache: 'cache-a' },
        {
          ...context,
          recordPending: async (state) => {
            await context.recordPending?.(state);
            if (stored.length === 2) stopped.abort();
          },
        },
      );
    await expect(firstCall).rejects.toMatchObject({ code: 'MCP_CALL_CANCELLED' });
    await firstConnection.close();

    const second = asking([{ answers: { f0: { label: 'all' } } }, { label: 'Send' }]);
    await using connection = await connectMcpServer(ROUNDS_SERVER, {
      interaction: second.interaction,
    });
    const resumed = callContext({ pending: stored[1] as string });
    const result = await connection.tools.tools
      .find((candidate) => candidate.name === WIPE)
      ?.execute({ cache: 'cache-a' }, resumed.context);
    expect(result).toEqual({ ok: true, output: 'Wiped all of cache-a' });
    // Only the question that waited is asked again.
    expect(second.provider.batches).toHaveLength(1);
    expect(JSON.stringify(second.provider.batches[0])).toContain('Which scope?');
  });

  it('refuses to go on from a round stored for another tool, or on a server that now speaks 2025 (MCP_CALL_INTERRUPTED)', async () => {
    const { interaction } = asking([]);
    await using connection = await connectMcpServer(ROUNDS_SERVER, { interaction });
    const tool = connection.tools.tools.find((candidate) => candidate.name === WIPE);
    const other = JSON.stringify({ v: 1, server: 'rounds', tool: 'other', inputRequests: {} });
    for (const pending of [other, 'not json', '{"v":2}']) {
      await expect(
        tool?.execute({ cache: 'x' }, callContext({ pending }).context),
      ).rejects.toMatchObject({ code: 'MCP_CALL_INTERRUPTED' });
    }
    await using legacy = await connectMcpServer(LEGACY_SERVER, { interaction, era: 'legacy' });
    const echo = legacy.tools.tools.find((candidate) => candidate.name === 'mcp__rounds__echo');
    await expect(
      echo?.execute({ text: 'x' }, callContext({ pending: other }).context),
    ).rejects.toMatchObject({ code: 'MCP_CALL_INTERRUPTED' });
  });
});
