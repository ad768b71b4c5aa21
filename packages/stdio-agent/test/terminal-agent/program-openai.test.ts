import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startChatServer } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runProgram } from '../support/program-run.js';

/** One answer of the loopback server: SSE chunks of chat completions, or an HTTP error. */
type Reply =
  | { readonly chunks: readonly object[] }
  | { readonly status: number; readonly body: string };

function chunk(delta: object, finishReason: string | null = null): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'loopback-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server?.closeAllConnections();
});

/** A chat-completions server on 127.0.0.1 that answers each request with the next reply. */
async function startServer(replies: readonly Reply[]): Promise<{ url: string; bodies: unknown[] }> {
  const queue = [...replies];
  const bodies: unknown[] = [];
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (part: Buffer) => {
      text += part.toString();
    });
    request.on('end', () => {
      bodies.push(JSON.parse(text));
      const reply = queue.shift() ?? {
        status: 500,
        body: '{"error":{"message":"no more replies"}}',
      };
      if ('status' in reply) {
        response.writeHead(reply.status, { 'content-type': 'application/json' });
        response.end(reply.body);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of reply.chunks) response.write(`data: ${JSON.stringify(event)}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, bodies };
}

/** The status lines without the one that names the folder the tools work in (the test's). */
function withoutWorkspace(stderr: string): string {
  return stderr.replace(/^Workspace: \/.*\n/m, '').replace(/^Sandbox: .*\n/m, '');
}

describe('the dsh-stdio-agent program on an OpenAI-compatible server', () => {
  it('streams the reply, asks the question the model calls for, and reports a failed turn', async () => {
    const { url, bodies } = await startServer([
      {
        chunks: [
          chunk({ role: 'assistant', content: 'Let me ' }),
          chunk({ content: 'ask.' }),
          chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'ask_user_question', arguments: '{"question":"Pick a' },
              },
            ],
          }),
          chunk({
            tool_calls: [
              {
                index: 0,
                function: {
                  arguments:
                    ' side?","options":[{"label":"Left"},{"label":"Right"}],"allow_custom":false}',
                },
              },
            ],
          }),
          chunk({}, 'tool_calls'),
        ],
      },
      { chunks: [chunk({ role: 'assistant', content: 'Right it is.' }), chunk({}, 'stop')] },
      { status: 401, body: '{"error":{"message":"Invalid API key"}}' },
    ]);
    const { code, stdout, stderr } = await runProgram(
      ['--base-url', url, '--model', 'loopback-model'],
      'hello\n2\nonce more\n',
    );
    // A turn failed, on pipes: a script is told by the exit status.
    expect(code).toBe(1);
    expect(withoutWorkspace(stderr)).toBe(`Model: loopback-model at ${url} (no API key)\n`);
    const transcript = [
      '> hello',
      'Let me ask.',
      '? Pick a side?',
      '  1. Left',
      '  2. Right',
      'Choose 1-2: 2',
      '✔ Pick a side? · Right',
      'Right it is.',
      '',
      '> once more',
      `✖ Error: The model server at ${url} rejected the API key (HTTP 401: Invalid API key). Check that the key is set and valid for this server. (MODEL_AUTH)`,
      '  Check DEEPSEEK_API_KEY (or DSH_API_KEY for another server) and run dsh-stdio-agent again.',
      '',
      '',
    ].join('\n');
    // One more prompt shows if the end of input was not known yet when the turn ended.
    expect([transcript, `${transcript}> \n`]).toContain(stdout);
    // The answer went back to the model as the tool's result, and the conversation went on.
    const second = JSON.stringify(bodies[1]);
    expect(second).toContain('"tool_call_id":"call_1"');
    expect(second).toContain('Right');
    expect(JSON.stringify(bodies[2])).toContain('Right it is.');
  });

  it('retries a server that never answers, then fails the turn with the real wait, and exits 1', async () => {
    const stalled = await startChatServer([{ stall: true }, { stall: true }]);
    try {
      const { code, stdout, stderr } = await runProgram(
        ['--base-url', stalled.url, '--model', 'm', '--request-timeout', '300ms', '--retries', '1'],
        'hello\n',
        { DSH_COMMAND: 'pnpm start --' },
      );
      expect(code).toBe(1);
      expect(withoutWorkspace(stderr)).toBe(`Model: m at ${stalled.url} (no API key)\n`);
      const url = stalled.url;
      expect(stdout.replace(/; 2 attempts, \d+ ms in all/, '; 2 attempts, N ms in all')).toBe(
        [
          '> hello',
          `↻ The model server at ${url} sent nothing for 300 ms. Retrying now, attempt 2 of 2.`,
          `✖ Error: The model server at ${url} sent nothing for 300 ms; 2 attempts, N ms in all. It may be down or overloaded: try again later, or allow it more time. (MODEL_TIMEOUT)`,
          '  Send your message again to retry (the conversation is kept), or give the server more time: pnpm start -- --request-timeout 60s, with your other flags.',
          '',
          '',
        ].join('\n'),
      );
      const waited = Number(/; 2 attempts, (\d+) ms in all/.exec(stdout)?.[1]);
      // Two silences of 300 ms at least; how much more depends on the machine (the figure itself
      // is checked on a fake clock in dsh-agent's model-time-limits test).
      expect(waited).toBeGreaterThanOrEqual(600);
      expect(stalled.requests).toHaveLength(2);
    } finally {
      await stalled.close();
    }
  });
});
