import { PassThrough, Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { acpStdioStream, createStderrLog, routeConsoleToStderr } from '../../src/index.js';
import { serveAcpAgent } from '../../src/server.js';
import { createTestClient, prompt, startSession } from '../../src/testing.js';
import { jsonFixture } from '../support/json-fixture.js';

const ONE_QUESTION = jsonFixture('one-question.json');

describe('the README example of serveAcpAgent', () => {
  it('serves on byte streams (here in memory instead of stdio) until the client goes away', async () => {
    // The editor's side of the two pipes.
    const toAgent = new PassThrough();
    const fromAgent = new PassThrough();
    const stderr = new PassThrough();
    let logged = '';
    stderr.on('data', (chunk: Buffer) => {
      logged += chunk.toString('utf8');
    });

    // As in the README, with a scripted model in place of the local server.
    const restoreConsole = routeConsoleToStderr();
    const log = createStderrLog('my-agent: ', stderr);
    const server = serveAcpAgent(acpStdioStream({ input: toAgent, output: fromAgent, log }), {
      model: createScriptedModel(ONE_QUESTION, { name: 'one-question' }),
      questionTimeoutMs: 10 * 60_000,
      log,
    });

    const testClient = createTestClient();
    const connection = testClient.app.connect(
      ndJsonStream(
        Writable.toWeb(toAgent) as WritableStream<Uint8Array>,
        Readable.toWeb(fromAgent) as ReadableStream<Uint8Array>,
      ),
    );
    try {
      const { agent } = connection;
      const sessionId = await startSession(agent);
      const response = prompt(agent, sessionId, 'Ask me.');
      (await testClient.forms.next()).reply({ action: 'accept', content: { text: 'hello' } });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(testClient.updates.text(sessionId)).toBe('One question.You said hello.');
      expect(logged).toBe(
        'my-agent: dsh-acp-test-client 1.0.0 connected (protocol 1; questions as forms)\n',
      );

      // The editor goes away: its end of the input closes, and the server is done.
      toAgent.end();
      await server.done;
      expect(server.sessions).toBe(0);
    } finally {
      connection.close();
      restoreConsole();
    }
  });
});
