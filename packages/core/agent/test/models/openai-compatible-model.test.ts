import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Model, ModelEvent, ModelRequest } from '../../src/models/model.js';
import { isModelError, type ModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from '../../src/models/openai-compatible-model-options.js';
import { chunk, closedPort, textChunks } from '../../src/testing.js';
import { closeLater, closeServers, serve } from '../support/chat-servers.js';

afterEach(async () => {
  await closeServers();
  vi.unstubAllEnvs();
});

function modelFor(url: string, options: OpenAICompatibleModelOptions = {}): Model {
  return createOpenAICompatibleModel({
    baseURL: url,
    model: 'test-model',
    apiKey: 'sk-test-secret-key',
    maxRetries: 0,
    ...options,
  });
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function eventsOf(model: Model, modelRequest = request()): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of model.stream(modelRequest)) events.push(event);
  return events;
}

async function failureOf(model: Model, modelRequest = request()): Promise<ModelError> {
  const error = await eventsOf(model, modelRequest).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isModelError(error), String(error)).toBe(true);
  const failure = error as ModelError;
  expect(failure.message).not.toContain('sk-test-secret-key');
  return failure;
}

describe('the OpenAI-compatible model', () => {
  it('streams text as it arrives and sends the request in the chat-completions shape', async () => {
    const server = await serve({ chunks: textChunks('Hel', 'lo ', 'there.') });
    const events = await eventsOf(
      modelFor(server.url),
      request({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 'call_1', name: 'ask_user_question', arguments: '{"question":"Q?"}' },
            ],
          },
          { role: 'tool', toolCallId: 'call_1', content: 'yes' },
          { role: 'assistant', content: 'Noted.' },
          { role: 'user', content: 'go on' },
        ],
        tools: [
          { name: 'ask_user_question', description: 'Asks.', parameters: { type: 'object' } },
        ],
      }),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo ' },
      { type: 'text-delta', text: 'there.' },
      { type: 'finish', reason: 'stop' },
    ]);
    const [received] = server.requests;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/v1/chat/completions');
    expect(received?.headers.authorization).toBe('Bearer sk-test-secret-key');
    expect(received?.body).toEqual({
      model: 'test-model',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'ask_user_question', arguments: '{"question":"Q?"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'yes' },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'go on' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'ask_user_question',
            description: 'Asks.',
            parameters: { type: 'object' },
          },
        },
      ],
    });
  });

  it('streams reasoning from `reasoning` too, and sends it back in that field with tool calls only', async () => {
    const server = await serve({
      chunks: [
        chunk({ role: 'assistant', reasoning: 'Let me ' }),
        chunk({ reasoning: 'think.', reasoning_content: null }),
        chunk({ content: 'Done.' }),
        chunk({}, 'stop'),
      ],
    });
    const events = await eventsOf(
      modelFor(server.url),
      request({
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_1', name: 'ask_user_question', arguments: '{}' }],
            reasoning: { text: ' exact \n text ', field: 'reasoning' },
          },
          { role: 'tool', toolCallId: 'call_1', content: 'yes' },
          {
            role: 'assistant',
            content: 'Noted.',
            reasoning: { text: 'dropped', field: 'reasoning' },
          },
          { role: 'user', content: 'go on' },
        ],
      }),
    );
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Let me ', field: 'reasoning' },
      { type: 'reasoning-delta', text: 'think.', field: 'reasoning' },
      { type: 'text-delta', text: 'Done.' },
      { type: 'finish', reason: 'stop' },
    ]);
    const messages = server.requests[0]?.body.messages as Record<string, unknown>[];
    expect(messages[1]).toMatchObject({ reasoning: ' exact \n text ' });
    expect(messages[1]).not.toHaveProperty('reasoning_content');
    expect(messages[3]).toEqual({ role: 'assistant', content: 'Noted.' });
  });

  it('sends another server only the standard reasoning_effort for --thinking', async () => {
    const server = await serve(
      { chunks: textChunks('a') },
      { chunks: textChunks('b') },
      { chunks: textChunks('c') },
    );
    await eventsOf(modelFor(server.url, { thinking: 'off' }));
    await eventsOf(modelFor(server.url, { thinking: 'max' }));
    await eventsOf(modelFor(server.url));
    const bodies = server.requests.map((received) => received.body);
    expect(bodies.map((body) => body.reasoning_effort)).toEqual(['none', 'max', undefined]);
    for (const body of bodies) expect(body).not.toHaveProperty('thinking');
  });

  it('leaves tools out of a request that has none', async () => {
    const server = await serve({ chunks: textChunks('ok') });
    await eventsOf(modelFor(server.url));
    expect(server.requests[0]?.body).not.toHaveProperty('tools');
  });

  it('assembles tool calls split across chunks and interleaved by index', async () => {
    const chunks = JSON.parse(
      await readFile(new URL('../fixtures/two-tool-calls.json', import.meta.url), 'utf8'),
    ) as object[];
    const server = await serve({ chunks });
    const events = await eventsOf(modelFor(server.url));
    expect(events).toEqual([
      { type: 'text-delta', text: 'Two questions.' },
      {
        type: 'tool-call',
        call: {
          id: 'call_lang',
          name: 'ask_user_question',
          arguments:
            '{"question": "Which language?", "options": [{"label": "Go"}, {"label": "Rust"}]}',
        },
      },
      {
        type: 'tool-call',
        call: {
          id: 'call_name',
          name: 'ask_user_question',
          arguments: '{"question": "Project name?"}',
        },
      },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('takes complete calls sent one after another at the same index', async () => {
    const call = (id: string, name: string) =>
      chunk({
        tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '{}' } }],
      });
    const server = await serve({
      chunks: [call('a', 'first'), call('b', 'second'), chunk({}, 'tool_calls')],
    });
    const calls = (await eventsOf(modelFor(server.url))).filter(
      (event) => event.type === 'tool-call',
    );
    expect(calls).toEqual([
      { type: 'tool-call', call: { id: 'a', name: 'first', arguments: '{}' } },
      { type: 'tool-call', call: { id: 'b', name: 'second', arguments: '{}' } },
    ]);
  });

  it.each([
    [401, 'MODEL_AUTH', 'rejected the API key (HTTP 401: Incorrect API key provided: ***).'],
    [403, 'MODEL_AUTH', 'rejected the API key (HTTP 403'],
    [429, 'MODEL_RATE_LIMITED', 'is limiting requests (HTTP 429'],
    [500, 'MODEL_UNAVAILABLE', 'failed (HTTP 500'],
    [503, 'MODEL_UNAVAILABLE', 'It may be down or overloaded'],
    [404, 'MODEL_NOT_FOUND', 'has no model "test-model"'],
    [400, 'MODEL_REQUEST_REJECTED', 'rejected the request (HTTP 400'],
  ] as const)('turns HTTP %i into %s, without the key', async (status, code, text) => {
    const server = await serve({
      status,
      body: JSON.stringify({
        error: {
          message: 'Incorrect API key provided: sk-test-secret-key',
          type: 'invalid_request_error',
        },
      }),
    });
    const error = await failureOf(modelFor(server.url));
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toContain(`The model server at ${server.url}`);
    expect(error.message).toContain(text);
  });

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

  it('sends a placeholder key to a server given none, and never the DeepSeek key', async () => {
    vi.stubEnv('DEEPSEEK_API_KEY', 'sk-deepseek-secret');
    vi.stubEnv('OPENAI_ORG_ID', 'org-should-not-leak');
    vi.stubEnv('OPENAI_API_KEY', 'sk-openai-secret');
    const server = await serve({ chunks: textChunks('local') });
    await eventsOf(createOpenAICompatibleModel({ baseURL: server.url, model: 'llama3.2' }));
    const headers = server.requests[0]?.headers ?? {};
    expect(headers.authorization).toBe('Bearer no-key');
    expect(JSON.stringify(headers)).not.toMatch(/secret|org-should-not-leak/);
    expect(server.requests[0]?.body.model).toBe('llama3.2');
  });

  it('needs a key for DeepSeek, and takes it from DEEPSEEK_API_KEY', () => {
    vi.stubEnv('DEEPSEEK_API_KEY', '');
    expect(() => createOpenAICompatibleModel()).toThrow(
      expect.objectContaining({
        code: 'MODEL_AUTH',
        message: expect.stringContaining('DEEPSEEK_API_KEY'),
      }),
    );
    vi.stubEnv('DEEPSEEK_API_KEY', 'sk-deepseek');
    expect(createOpenAICompatibleModel().id).toBe('deepseek-flash');
    expect(createOpenAICompatibleModel({ model: 'deepseek-reasoner' }).id).toBe(
      'deepseek-reasoner',
    );
  });

  it('rejects a base URL that is not http(s), as every option of the package: a TypeError', () => {
    expect(() => createOpenAICompatibleModel({ baseURL: 'localhost:11434' })).toThrow(TypeError);
    expect(() => createOpenAICompatibleModel({ baseURL: 'localhost:11434' })).toThrow(
      /"localhost:11434" is not an http\(s\) URL/,
    );
  });

  it('uses the given fetch and headers', async () => {
    const server = await serve({ chunks: textChunks('ok') });
    const fetchSpy = vi.fn((input: string | URL | Request, init?: RequestInit) =>
      fetch(input, init),
    );
    await eventsOf(modelFor(server.url, { fetch: fetchSpy, headers: { 'x-title': 'dsh' } }));
    expect(fetchSpy).toHaveBeenCalledOnce();
    expect(server.requests[0]?.headers['x-title']).toBe('dsh');
  });
});
