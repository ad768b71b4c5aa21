import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import { isModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import { removeTemporaryStateFolders, startDeepSeekStandIn } from '../../src/testing.js';
import {
  closeStandIns,
  collectModel,
  deepSeekAgent,
  standIn,
  standIns,
} from '../support/deepseek-stand-ins.js';
import { collect, textOf } from '../support/harness.js';

afterEach(async () => {
  await closeStandIns();
  removeTemporaryStateFolders();
});

describe('DeepSeek, as its API documents it today', () => {
  it('maps each thinking level to DeepSeek fields, and sends none by default', async () => {
    for (const [thinking, fields] of [
      [undefined, {}],
      ['low', { thinking: { type: 'enabled' }, reasoning_effort: 'low' }],
      ['high', { thinking: { type: 'enabled' }, reasoning_effort: 'high' }],
      ['max', { thinking: { type: 'enabled' }, reasoning_effort: 'max' }],
    ] as const) {
      const server = await standIn(() => ({ reasoning: 'Hm.', content: 'Hi.' }));
      const model = createOpenAICompatibleModel({
        baseURL: server.url,
        apiKey: server.apiKey,
        maxRetries: 0,
        ...(thinking !== undefined && { thinking }),
      });
      await collectModel(model, [{ role: 'user', content: 'hi' }]);
      const { body } = server.requests[0] as { body: Record<string, unknown> };
      expect({ thinking: body.thinking, reasoning_effort: body.reasoning_effort }).toEqual({
        thinking: undefined,
        reasoning_effort: undefined,
        ...fields,
      });
    }
  });

  it('assembles several tool calls of one message, each at its own index', async () => {
    const server = await standIn(({ messages }) =>
      messages.at(-1)?.role === 'tool'
        ? { reasoning: 'Both answered.', content: 'Done.' }
        : {
            reasoning: 'Two things to ask.',
            toolCalls: [
              { name: 'ask_user_question', arguments: { question: 'First?' } },
              { name: 'ask_user_question', arguments: { question: 'Second?' } },
            ],
          },
    );
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({ answers: [{ custom: 'one' }, { custom: 'two' }] });
    interaction.registerProvider(provider);
    const model = createOpenAICompatibleModel({
      baseURL: server.url,
      apiKey: server.apiKey,
      model: 'deepseek-v4-pro',
      maxRetries: 0,
    });
    const agent = createAgent({ model, interaction });
    const events = await collect(agent.run('Ask me two things'));
    expect(events.at(-1)).toEqual({ type: 'turn-end', reason: 'finished' });
    expect(provider.requests.map((request) => request.question)).toEqual(['First?', 'Second?']);
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results.map((event) => event.result.output)).toEqual(['one', 'two']);
    expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
  });

  it('names the current models when the server refuses a retired or unknown one', async () => {
    const server = await standIn();
    for (const name of ['deepseek-chat', 'deepseek-reasoner', 'deepseek-v9']) {
      const model = createOpenAICompatibleModel({
        baseURL: server.url,
        apiKey: server.apiKey,
        model: name,
        maxRetries: 0,
      });
      const failure = await collectModel(model, [{ role: 'user', content: 'hi' }]).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isModelError(failure, 'MODEL_NOT_FOUND'), String(failure)).toBe(true);
      const { message } = failure as Error;
      expect(message).toContain(`"${name}"`);
      expect(message).toContain('deepseek-flash and deepseek-v4-pro');
      if (name !== 'deepseek-v9') expect(message).toContain(`${name} was retired on 2026-07-24`);
    }
  });

  it('a busy DeepSeek is sent the request again, each retry announced, and the turn goes on', async () => {
    const server = await startDeepSeekStandIn({ busy: [503, 429] });
    standIns.push(server);
    const { agent } = deepSeekAgent(server, { maxRetries: 2, retryDelayMs: 1 });
    const events = await collect(agent.run('Paint the fence'));
    expect(events.filter((event) => event.type === 'retry')).toEqual([
      {
        type: 'retry',
        attempt: 2,
        attempts: 3,
        delayMs: 1,
        error: {
          name: 'ModelError',
          code: 'MODEL_UNAVAILABLE',
          message: `The model server at ${server.url} failed (HTTP 503: Server Overloaded: the server is overloaded due to high traffic.).`,
        },
      },
      expect.objectContaining({
        attempt: 3,
        delayMs: 2,
        error: expect.objectContaining({ code: 'MODEL_RATE_LIMITED' }),
      }),
    ]);
    expect(textOf(events)).toBe('Let me ask first.Painting the fence Blue.');
    expect(server.requests.map((request) => request.status)).toEqual([503, 429, 200, 200]);
  });
});
