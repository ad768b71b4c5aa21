import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelEvent } from '../../src/models/model.js';
import { chunk, closedPort, textChunks } from '../../src/testing.js';
import { closeLater, closeServers, serve } from '../support/chat-servers.js';
import { eventsOf, failureOf, modelFor, request } from '../support/openai-model-requests.js';

afterEach(async () => {
  await closeServers();
  vi.unstubAllEnvs();
});

describe('the OpenAI-compatible model', () => {
  it('reads an error body that is a plain string, as Ollama sends', async () => {
    const server = await serve({
      status: 404,
      body: JSON.stringify({ error: "model 'llama9' not found" }),
    });
    const error = await failureOf(modelFor(server.url));
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.message).toContain("(HTTP 404: model 'llama9' not found)");
    expect(error.message).toContain('usually end in /v1');
  });

  it('retries a rate-limited request when asked to', async () => {
    const server = await serve(
      {
        status: 429,
        headers: { 'retry-after-ms': '1' },
        body: '{"error":{"message":"slow down"}}',
      },
      { chunks: textChunks('second try') },
    );
    const events = await eventsOf(modelFor(server.url, { maxRetries: 1 }));
    expect(events).toEqual([
      {
        type: 'retry',
        attempt: 2,
        attempts: 2,
        delayMs: 1,
        error: {
          name: 'ModelError',
          code: 'MODEL_RATE_LIMITED',
          message: `The model server at ${server.url} is limiting requests (HTTP 429: slow down).`,
        },
      },
      { type: 'text-delta', text: 'second try' },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('turns a refused connection into MODEL_CONNECTION', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const error = await failureOf(modelFor(url));
    expect(error.code).toBe('MODEL_CONNECTION');
    expect(error.message).toBe(
      `Cannot reach the model server at ${url} (connection refused: nothing accepts connections on 127.0.0.1 port ${port}). Check that the server is running, and that the host and port of the base URL you gave are right.`,
    );
  });

  it('turns a server that does not start answering in time into MODEL_TIMEOUT', async () => {
    // A server that accepts the request but sends no headers: the socket stays silent.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closeLater({
      close: async () => {
        silent.closeAllConnections();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      },
    });
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    const error = await failureOf(modelFor(url, { timeoutMs: 50 }));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.message).toBe(
      `The model server at ${url} sent nothing for 50 ms. It may be down or overloaded: try again later, or allow it more time.`,
    );
  });

  it('turns garbage in the stream into MODEL_BAD_RESPONSE, quietly', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const server = await serve({ chunks: [chunk({ content: 'ok' }), '{"choices": [ garbage'] });
    const error = await failureOf(modelFor(server.url));
    expect(error.code).toBe('MODEL_BAD_RESPONSE');
    expect(error.message).toContain('not valid JSON');
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('turns an error event inside the stream into MODEL_UNAVAILABLE', async () => {
    const server = await serve({
      chunks: [
        chunk({ content: 'Hi' }),
        { error: { message: 'Overloaded', type: 'server_error' } },
      ],
    });
    const error = await failureOf(modelFor(server.url));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('reported an error mid-response: Overloaded.');
  });

  it('fails a stream that ends before the model finished', async () => {
    const server = await serve({ chunks: [chunk({ content: 'Hal' })], done: false });
    const error = await failureOf(modelFor(server.url));
    expect(error.code).toBe('MODEL_BAD_RESPONSE');
    expect(error.message).toContain('ended its response before the model finished');
  });

  it('fails a stream whose connection breaks mid-way', async () => {
    const server = await serve({ chunks: [chunk({ content: 'Hal' })], destroy: true });
    const error = await failureOf(modelFor(server.url));
    expect(error.code).toBe('MODEL_CONNECTION');
    expect(error.message).toContain('was lost mid-response');
  });

  it('explains a server that answers with something else than a stream', async () => {
    const server = await serve({ body: '<html>Welcome to my blog</html>' });
    const error = await failureOf(modelFor(server.url));
    expect(error.code).toBe('MODEL_BAD_RESPONSE');
    expect(error.message).toContain('sent no chat-completions data');
  });

  it('stops mid-stream on abort: the stream ends and the server sees the connection close', async () => {
    const server = await serve({ chunks: [chunk({ content: 'Hel' })], hold: true });
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    for await (const event of modelFor(server.url).stream(request({ signal: controller.signal }))) {
      events.push(event);
      controller.abort();
    }
    expect(events).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    const received = await server.request(0);
    await received.closed;
    expect(received.finished()).toBe(false);
  });

  it('stops at once on abort while the client waits to retry', async () => {
    const server = await serve({
      status: 503,
      // Longer than the test's own time limit: a wait the abort did not end fails the test.
      headers: { 'retry-after': '30' },
      body: '{"error":{"message":"busy"}}',
    });
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    for await (const event of modelFor(server.url, { maxRetries: 1 }).stream(
      request({ signal: controller.signal }),
    )) {
      events.push(event);
      // The retry is announced, then waited for: the cancel comes during that wait.
      controller.abort();
    }
    expect(events).toMatchObject([{ type: 'retry', attempt: 2, delayMs: 30_000 }]);
    expect(server.requests).toHaveLength(1);
  });

  it('makes no request when the signal is already aborted', async () => {
    const server = await serve({ chunks: textChunks('never') });
    expect(await eventsOf(modelFor(server.url), request({ signal: AbortSignal.abort() }))).toEqual(
      [],
    );
    expect(server.requests).toHaveLength(0);
  });
});
