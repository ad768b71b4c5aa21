import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunk, textChunks } from '../../src/testing.js';
import { closeServers, serve } from '../support/chat-servers.js';
import { eventsOf, failureOf, modelFor, request } from '../support/openai-model-requests.js';

afterEach(async () => {
  await closeServers();
  vi.unstubAllEnvs();
});

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
});
