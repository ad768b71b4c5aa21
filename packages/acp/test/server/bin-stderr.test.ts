import { methods } from '@agentclientprotocol/sdk';
import { deferred } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { createTestClient, initializeClient, prompt } from '../../src/testing.js';
import { endInput, fixture, startBin } from '../support/bin-process.js';

describe('an editor that stops reading the agent’s stderr', () => {
  it('loses the log, never the sessions: they go on over stdin and stdout', async () => {
    const bin = startBin(['--script', fixture('one-question.json')]);
    // The first log line says the agent is serving; then the reader of stderr goes away.
    const serving = deferred<void>();
    bin.child.stderr.once('data', () => serving.resolve());
    await serving.promise;
    bin.child.stderr.destroy();

    const testClient = createTestClient();
    await testClient.app.connectWith(bin.stream, async (agent) => {
      // Each of these logs a line to the closed stderr.
      await initializeClient(agent);
      const { sessionId } = await agent.request(methods.agent.session.new, {
        cwd: '/',
        mcpServers: [{ name: 'files', command: 'mcp-files', args: [], env: [] }],
      });
      const response = prompt(agent, sessionId, 'Ask me.');
      (await testClient.forms.next()).reply({ action: 'accept', content: { text: 'blue' } });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      const { sessionId: second } = await agent.request(methods.agent.session.new, {
        cwd: '/',
        mcpServers: [],
      });
      const again = prompt(agent, second, 'Ask me.');
      (await testClient.forms.next()).reply({ action: 'decline' });
      expect(await again).toEqual({ stopReason: 'end_turn' });
    });
    expect(await endInput(bin)).toEqual({ code: 0, signal: null });
  });
});
