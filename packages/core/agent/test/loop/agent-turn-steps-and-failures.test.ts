import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { createAgent, DEFAULT_MAX_STEPS } from '../../src/loop/create-agent.js';
import { ModelError } from '../../src/models/model-error.js';
import type { Script } from '../../src/script/script.js';
import { controlledModel } from '../../src/testing.js';
import {
  collect,
  endOf,
  expectValidConversation,
  scriptedAgent,
  textOf,
} from '../support/harness.js';

describe('a turn', () => {
  it('runs several calls of one step one after another, in order', async () => {
    const script: Script = {
      steps: [
        {
          toolCalls: [
            { id: 'a', name: 'ask_user_question', arguments: { question: 'First?' } },
            { id: 'b', name: 'ask_user_question', arguments: { question: 'Second?' } },
          ],
        },
        { text: '{{answer:a}} then {{answer:b}}' },
      ],
    };
    const { agent, provider } = scriptedAgent(script);
    const first = provider.hold();
    const turn = collect(agent.run('go'));
    const held = await first;
    // The second question is not asked while the first is open.
    expect(provider.requests.map((request) => request.question)).toEqual(['First?']);
    const second = provider.hold();
    held.answer({ custom: 'one' });
    (await second).answer({ custom: 'two' });
    const events = await turn;
    expect(textOf(events)).toBe('one then two');
    expect(events.map((event) => event.type).filter((type) => type !== 'text')).toEqual([
      'tool-call',
      'tool-result',
      'tool-call',
      'tool-result',
      'turn-end',
    ]);
    expectValidConversation(agent.messages);
  });

  it('stops a model that keeps calling tools at the step limit, and the next turn runs', async () => {
    const loop: Script = {
      steps: Array.from({ length: 6 }, (_, index) => ({
        toolCalls: [{ id: `n${index}`, name: 'no_such_tool' }],
      })),
    };
    const { agent, model } = scriptedAgent(loop, { agent: { maxSteps: 3 } });
    const events = await collect(agent.run('loop'));
    expect(endOf(events)).toEqual({
      type: 'turn-end',
      reason: 'step-limit',
      error: {
        name: 'AgentError',
        code: 'STEP_LIMIT',
        message: expect.stringContaining('all 3 steps'),
      },
    });
    expect(model.requests).toHaveLength(3);
    expectValidConversation(agent.messages);
    expect(agent.running).toBe(false);

    const next = await collect(agent.run('again'));
    expect(endOf(next).reason).toBe('step-limit');
    expect(model.requests).toHaveLength(6);
    expect(DEFAULT_MAX_STEPS).toBeGreaterThanOrEqual(10);
  });

  it('ends with the model error and lets the next turn try again', async () => {
    const control = controlledModel();
    const interaction = createUserInteraction();
    const agent = createAgent({ model: control.model, interaction });
    const turn = collect(agent.run('hello'));
    await control.request(0);
    control.send({ type: 'text-delta', text: 'Partial ' });
    control.send(
      new ModelError('The server is limiting requests.', 'MODEL_RATE_LIMITED', { status: 429 }),
    );
    const events = await turn;
    expect(events).toEqual([
      { type: 'text', text: 'Partial ' },
      {
        type: 'turn-end',
        reason: 'error',
        error: {
          name: 'ModelError',
          code: 'MODEL_RATE_LIMITED',
          message: 'The server is limiting requests.',
        },
      },
    ]);
    expect(agent.messages.slice(1)).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'Partial ' },
    ]);

    const retry = collect(agent.run('hello again'));
    await control.request(1);
    control.send({ type: 'text-delta', text: 'Fine now.' });
    control.send({ type: 'finish', reason: 'stop' });
    control.send('end');
    expect(endOf(await retry).reason).toBe('finished');
    expect(control.requests[1]?.messages.slice(1).map((message) => message.content)).toEqual([
      'hello',
      'Partial ',
      'hello again',
    ]);
  });

  it('turns an unexpected model failure into a generic error, never its text', async () => {
    const interaction = createUserInteraction();
    const agent = createAgent({
      interaction,
      model: {
        id: 'broken',
        stream() {
          throw new Error('secret path /home/me/.key');
        },
      },
    });
    const events = await collect(agent.run('hi'));
    expect(endOf(events)).toEqual({
      type: 'turn-end',
      reason: 'error',
      error: { name: 'Error', code: 'INTERNAL_ERROR', message: expect.any(String) },
    });
    expect(JSON.stringify(events)).not.toContain('secret');
  });

  it('ends the turn when the model ends its step without tool calls, whatever the reason', async () => {
    const control = controlledModel();
    const agent = createAgent({ model: control.model, interaction: createUserInteraction() });
    const turn = collect(agent.run('hi'));
    await control.request(0);
    control.send({ type: 'text-delta', text: 'Cut' });
    control.send({ type: 'finish', reason: 'length' });
    control.send('end');
    expect(endOf(await turn).reason).toBe('finished');
  });

  it("streams a model's retries as retry events, and drops malformed ones", async () => {
    const control = controlledModel();
    const agent = createAgent({ model: control.model, interaction: createUserInteraction() });
    const turn = collect(agent.run('hi'));
    await control.request(0);
    const error = { name: 'ModelError', code: 'MODEL_TIMEOUT', message: 'Nothing for 20 s.' };
    control.send({ type: 'retry', attempt: 2, attempts: 3, delayMs: 0, error });
    control.send({ type: 'retry', attempt: '3', attempts: 3, delayMs: 0, error } as never);
    control.send({ type: 'retry', attempt: 3, attempts: 3, delayMs: -1, error });
    control.send({ type: 'retry', attempt: 3, attempts: 3, delayMs: 5, error: {} } as never);
    control.send({ type: 'text-delta', text: 'Back.' });
    control.send({ type: 'finish', reason: 'stop' });
    control.send('end');
    expect(await turn).toEqual([
      { type: 'retry', attempt: 2, attempts: 3, delayMs: 0, error },
      {
        type: 'retry',
        attempt: 3,
        attempts: 3,
        delayMs: 5,
        error: { name: 'Error', code: 'INTERNAL_ERROR', message: '' },
      },
      { type: 'text', text: 'Back.' },
      { type: 'turn-end', reason: 'finished' },
    ]);
  });
});
