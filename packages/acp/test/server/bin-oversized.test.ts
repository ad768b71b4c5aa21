import { DEFAULT_MAX_MESSAGE_BYTES, methods } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { withBinClient } from '../support/bin-client.js';
import { fixture } from '../support/bin-process.js';
import { newSession, prompt, startSession } from '../support/server-harness.js';
import { createTestClient } from '../support/test-client.js';

describe('a line over the 32 MiB message limit, against the bin', () => {
  it('is refused with an error to its sender; the connection and the other sessions go on', async () => {
    const testClient = createTestClient();
    const { bin } = await withBinClient(
      ['--script', fixture('one-question.json')],
      testClient,
      async (agent, bin) => {
        const waiting = await startSession(agent);
        const response = prompt(agent, waiting, 'Ask me.');
        const form = await testClient.forms.next();

        const text = 'x'.repeat(DEFAULT_MAX_MESSAGE_BYTES);
        bin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 'huge', method: methods.agent.session.prompt, params: { sessionId: waiting, prompt: [{ type: 'text', text }] } })}\n`,
        );
        // Lines are handled in order: once a later request is answered, the refusal is out.
        const other = await newSession(agent);
        const refusal = bin.lines.all
          .map((line) => JSON.parse(line) as { id?: unknown })
          .find((message) => message.id === 'huge');
        expect(refusal).toMatchObject({
          id: 'huge',
          error: {
            code: -32600,
            data: { code: 'MESSAGE_TOO_LARGE', maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES },
          },
        });

        // The pending prompt is answered, and another session runs a whole turn.
        form.reply({ action: 'accept', content: { text: 'blue' } });
        expect(await response).toEqual({ stopReason: 'end_turn' });
        const next = prompt(agent, other, 'Ask me.');
        (await testClient.forms.next()).reply({ action: 'decline' });
        expect(await next).toEqual({ stopReason: 'end_turn' });
      },
    );
    expect(bin.stderr()).toMatch(
      /dsh-acp: refused request "huge": \d+ bytes, over the 33554432-byte limit\n/,
    );
  });
});
