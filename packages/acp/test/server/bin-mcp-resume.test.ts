import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CreateElicitationResponse, type McpServer, methods } from '@agentclientprotocol/sdk';
import {
  removeTemporaryStateFolders,
  sessionFileLines,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestClient, initializeClient, prompt } from '../../src/testing.js';
import { startBin } from '../support/bin-process.js';
import { withProgramClient } from '../support/program-client.js';
import { rejectionOf } from '../support/rejection-of.js';
import { linesOf } from '../support/session-lines.js';

afterEach(removeTemporaryStateFolders);

// dsh-mcp's 2026-07-28 loopback server, written with the SDK's server package: `wipe` asks in two
// rounds and keeps what the first proved in a sealed `requestState`, whose key is given here so
// that the server started again by the next process accepts it.
const ROUNDS = fileURLToPath(
  new URL('../../../mcp/test/fixtures/rounds-server.mjs', import.meta.url),
);
const SERVER: McpServer = {
  name: 'srv',
  command: process.execPath,
  args: [ROUNDS],
  env: [{ name: 'LOOPBACK_STATE_KEY', value: 'a-key-of-the-test-that-is-32-bytes!' }],
};

describe('an MCP question pending when dsh-acp is killed (-9)', () => {
  it('of a 2026-07-28 server: session/load asks it again, scoped to the same tool call, and the call is retried with its requestState', async () => {
    const stateDir = temporaryStateFolder();
    const cwd = stateDir;
    const script = join(stateDir, 'script.json');
    const call = { id: 'w1', name: 'mcp__srv__wipe', arguments: { cache: 'cache-a' } };
    writeFileSync(
      script,
      JSON.stringify({ steps: [{ text: 'Wiping.', toolCalls: [call] }, { text: 'Done.' }] }),
    );
    const args = ['--state-dir', stateDir, '--script', script];

    const first = createTestClient();
    const bin = startBin(args);
    const connection = first.app.connect(bin.stream);
    await initializeClient(connection.agent);
    const { sessionId } = await connection.agent.request(methods.agent.session.new, {
      cwd,
      mcpServers: [SERVER],
    });
    void rejectionOf(prompt(connection.agent, sessionId, 'wipe the cache'));
    (await first.permissions.next()).reply({
      outcome: { outcome: 'selected', optionId: 'allow_once' },
    });
    const confirm = await first.forms.next();
    expect(confirm.params).toMatchObject({ toolCallId: 'w1', message: 'MCP server srv' });
    confirm.reply({ action: 'accept', content: { f0: 'true' } } as CreateElicitationResponse);
    (await first.forms.next()).reply({
      action: 'accept',
      content: { choice: 'send' },
    } as CreateElicitationResponse);
    // Sent to the editor only once stored, with the server's requestState, and synced.
    const scope = await first.forms.next();
    expect(JSON.stringify(scope.params)).toContain('Which scope?');
    bin.child.kill('SIGKILL');
    expect(await bin.exited).toEqual({ code: null, signal: 'SIGKILL' });
    connection.close();

    const second = createTestClient();
    await withProgramClient(args, second, async (agent) => {
      await initializeClient(agent);
      await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [SERVER] });
      const again = await second.forms.next();
      expect(again.params).toMatchObject({ sessionId, toolCallId: 'w1' });
      expect(JSON.stringify(again.params)).toContain('Which scope?');
      again.reply({ action: 'accept', content: { f0: 'c:1' } } as CreateElicitationResponse);
      (await second.forms.next()).reply({
        action: 'accept',
        content: { choice: 'send' },
      } as CreateElicitationResponse);
      await vi.waitFor(
        () =>
          expect(
            second.updates
              .toolCallUpdates(sessionId)
              .filter((update) => update.toolCallId === 'w1' && update.status === 'completed'),
          ).toHaveLength(1),
        { timeout: 20_000 },
      );
    });
    const lines = sessionFileLines(stateDir, sessionId);
    expect(linesOf(lines, 'approval', 'w1')).toHaveLength(1);
    expect(linesOf(lines, 'tool-result', 'w1')).toEqual([
      expect.objectContaining({ result: { ok: true, output: 'Wiped all of cache-a' } }),
    ]);
  });
});
