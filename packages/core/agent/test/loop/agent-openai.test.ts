import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import { DEFAULT_INSTRUCTIONS } from '../../src/loop/default-instructions.js';
import { toolCallIdOf } from '../../src/loop/tool-call-agent.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import { chunk, textChunks } from '../../src/testing.js';
import { closeServers, retryAfterSilence, serve } from '../support/chat-servers.js';
import {
  collect,
  collectCancelledAtText,
  endOf,
  expectValidConversation,
  textOf,
} from '../support/harness.js';

afterEach(closeServers);

const askChunks = [
  chunk({ role: 'assistant', content: 'Let me check.' }),
  chunk({
    tool_calls: [
      {
        index: 0,
        id: 'call_00_x1',
        type: 'function',
        function: { name: 'ask_user_question', arguments: '' },
      },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"question":"Tabs or' } }] }),
  chunk({
    tool_calls: [
      {
        index: 0,
        function: { arguments: ' spaces?","options":[{"label":"Tabs"},{"label":"Spaces"}]}' },
      },
    ],
  }),
  chunk({}, 'tool_calls'),
];

function setup(server: { url: string }) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider();
  interaction.registerProvider(provider);
  const model = createOpenAICompatibleModel({
    baseURL: server.url,
    model: 'test-model',
    apiKey: 'sk-test',
    maxRetries: 0,
  });
  return { agent: createAgent({ id: 'session-1', model, interaction }), provider };
}

describe('the agent on a chat-completions server', () => {
  it('asks the question the model calls for and sends the answer back', async () => {
    const server = await serve({ chunks: askChunks }, { chunks: textChunks('Spaces', ' it is.') });
    const { agent, provider } = setup(server);
    provider.enqueue({ label: 'Spaces' });
    const events = await collect(agent.run('Format my file'));

    expect(textOf(events)).toBe('Let me check.Spaces it is.');
    expect(endOf(events).reason).toBe('finished');
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({
      id: 'call_00_x1',
      title: 'Tabs or spaces?',
    });
    expect(toolCallIdOf(provider.requests[0])).toBe('call_00_x1');
    expect(provider.requests[0]?.agent?.id).toBe('session-1');

    const [first, second] = server.requests;
    if (first === undefined || second === undefined) throw new Error('two requests expected');
    const firstMessages = first.body.messages as { role: string; content: string }[];
    expect(firstMessages[0]).toEqual({ role: 'system', content: DEFAULT_INSTRUCTIONS });
    expect((first.body.tools as { function: { name: string } }[])[0]?.function.name).toBe(
      'ask_user_question',
    );
    expect((second.body.messages as unknown[]).slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          {
            id: 'call_00_x1',
            type: 'function',
            function: {
              name: 'ask_user_question',
              arguments:
                '{"question":"Tabs or spaces?","options":[{"label":"Tabs"},{"label":"Spaces"}]}',
            },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_00_x1', content: 'Spaces' },
    ]);
    expectValidConversation(agent.messages);
  });

  it('ends a turn with the server error and succeeds on the next turn', async () => {
    const server = await serve(
      { status: 503, body: '{"error":{"message":"Service busy"}}' },
      { chunks: textChunks('Back online.') },
    );
    const { agent } = setup(server);
    const failed = await collect(agent.run('hello'));
    expect(endOf(failed)).toEqual({
      type: 'turn-end',
      reason: 'error',
      error: {
        name: 'ModelError',
        code: 'MODEL_UNAVAILABLE',
        message: `The model server at ${server.url} failed (HTTP 503: Service busy). It may be down or overloaded: try again in a moment.`,
      },
    });
    const next = await collect(agent.run('hello?'));
    expect(textOf(next)).toBe('Back online.');
    expect(server.requests[1]?.body.messages).toEqual([
      { role: 'system', content: DEFAULT_INSTRUCTIONS },
      { role: 'user', content: 'hello' },
      { role: 'user', content: 'hello?' },
    ]);
  });

  it('streams each retry of a request as a retry event, and keeps the conversation as if sent once', async () => {
    const server = await serve(
      { stall: true },
      { status: 503, headers: { 'retry-after-ms': '1' }, body: '{"error":{"message":"busy"}}' },
      { chunks: textChunks('Here.') },
    );
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider());
    const model = createOpenAICompatibleModel({
      baseURL: server.url,
      model: 'test-model',
      timeoutMs: 100,
    });
    const agent = createAgent({ model, interaction });
    const events = await collect(agent.run('hello'));
    expect(events).toEqual([
      retryAfterSilence(server.url, 100),
      {
        type: 'retry',
        attempt: 3,
        attempts: 3,
        delayMs: 1,
        error: {
          name: 'ModelError',
          code: 'MODEL_UNAVAILABLE',
          message: `The model server at ${server.url} failed (HTTP 503: busy).`,
        },
      },
      { type: 'text', text: 'Here.' },
      { type: 'turn-end', reason: 'finished' },
    ]);
    expect(agent.messages.slice(1)).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'Here.' },
    ]);
  });

  it('cancels a streaming turn: the request is aborted and the turn ends cancelled', async () => {
    const server = await serve({ chunks: [chunk({ content: 'Thinking' })], hold: true });
    const { agent } = setup(server);
    expect(await collectCancelledAtText(agent, 'hi')).toEqual([
      { type: 'text', text: 'Thinking' },
      { type: 'turn-end', reason: 'cancelled' },
    ]);
    const received = await server.request(0);
    await received.closed;
    expect(received.finished()).toBe(false);
    expect(agent.messages.at(-1)).toEqual({ role: 'assistant', content: 'Thinking' });
  });
});
