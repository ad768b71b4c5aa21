import { getEventListeners } from 'node:events';
import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { isAgentError } from '../../src/loop/agent-error.js';
import { createAgent } from '../../src/loop/create-agent.js';
import type { Script } from '../../src/script/script.js';
import { controlledModel } from '../../src/testing.js';
import {
  collect,
  collectCancelledAtText,
  endOf,
  expectValidConversation,
  scriptedAgent,
  textOf,
} from '../support/harness.js';

const ask = (id: string, question: string) => ({
  id,
  name: 'ask_user_question',
  arguments: { question },
});

const THREE_ASKS: Script = {
  steps: [
    { text: 'Three questions.', toolCalls: [ask('a', 'A?'), ask('b', 'B?'), ask('c', 'C?')] },
    { text: 'A={{answer:a|-}} B={{answer:b|-}} C={{answer:c|-}}' },
    { text: 'Next turn.' },
  ],
};

const CANCELLED_RESULT = {
  ok: false,
  output: expect.stringContaining('TURN_CANCELLED'),
  error: { name: 'AgentError', code: 'TURN_CANCELLED', message: expect.any(String) },
};

describe('cancelling a turn', () => {
  it('before the model starts: no request, the turn ends cancelled', async () => {
    const { agent, model } = scriptedAgent({ steps: [{ text: 'Hi.' }] });
    const events = await collect(agent.run('hello', { signal: AbortSignal.abort() }));
    expect(events).toEqual([{ type: 'turn-end', reason: 'cancelled' }]);
    expect(model.requests).toHaveLength(0);
    expect(agent.messages.slice(1)).toEqual([{ role: 'user', content: 'hello' }]);

    const next = await collect(agent.run('hello again'));
    expect(textOf(next)).toBe('Hi.');
    expect(endOf(next).reason).toBe('finished');
  });

  it('mid-stream: stops waiting for a model that ignores its signal, keeps the text', async () => {
    const control = controlledModel();
    const agent = createAgent({ model: control.model, interaction: createUserInteraction() });
    const turn = collectCancelledAtText(agent, 'hi');
    const request = await control.request(0);
    control.send({ type: 'text-delta', text: 'Half a sen' });
    expect(await turn).toEqual([
      { type: 'text', text: 'Half a sen' },
      { type: 'turn-end', reason: 'cancelled' },
    ]);
    expect(request.signal.aborted).toBe(true);
    expect(control.returned).toBe(1);
    // Tool calls of the unfinished step are dropped; the text stays.
    expect(agent.messages.slice(1)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Half a sen' },
    ]);
    expect(agent.running).toBe(false);
  });

  it('mid-stream on the scripted model: the rest of the text is not sent', async () => {
    const { agent } = scriptedAgent({ steps: [{ text: 'one two three four' }, { text: 'Back.' }] });
    expect(await collectCancelledAtText(agent, 'hi')).toEqual([
      { type: 'text', text: 'one ' },
      { type: 'turn-end', reason: 'cancelled' },
    ]);
    expect(agent.messages.at(-1)).toEqual({ role: 'assistant', content: 'one ' });
    expect(textOf(await collect(agent.run('again')))).toBe('Back.');
  });

  it('mid-question: withdraws the question, keeps earlier answers, closes every call', async () => {
    const { agent, provider } = scriptedAgent(THREE_ASKS, { answers: [{ custom: 'first' }] });
    const held = provider.hold();
    const controller = new AbortController();
    const turn = collect(agent.run('go', { signal: controller.signal }));
    const question = await held;
    expect(question.request.question).toBe('B?');
    controller.abort();
    await question.aborted;
    const events = await turn;
    expect(events.filter((event) => event.type !== 'text')).toEqual([
      expect.objectContaining({ type: 'tool-call', id: 'a' }),
      {
        type: 'tool-result',
        id: 'a',
        name: 'ask_user_question',
        result: expect.objectContaining({ ok: true, output: 'first' }),
      },
      expect.objectContaining({ type: 'tool-call', id: 'b', title: 'B?' }),
      { type: 'tool-result', id: 'b', name: 'ask_user_question', result: CANCELLED_RESULT },
      { type: 'turn-end', reason: 'cancelled' },
    ]);
    // A question withdrawn did nothing: the model is told so, not that it may have acted.
    const withdrawn = events.find((event) => event.type === 'tool-result' && event.id === 'b');
    expect(withdrawn).toMatchObject({
      result: { error: { message: expect.stringContaining('Do not assume it ran') } },
    });
    expect(provider.pending).toBe(0);
    expect(provider.requests).toHaveLength(2); // C was never asked
    expectValidConversation(agent.messages);
    const results = agent.messages.filter((message) => message.role === 'tool');
    expect(
      results.map((message) => [message.toolCallId, message.content, message.error?.code]),
    ).toEqual([
      ['a', 'first', undefined],
      ['b', expect.stringContaining('TURN_CANCELLED'), 'TURN_CANCELLED'],
      ['c', expect.stringContaining('TURN_CANCELLED'), 'TURN_CANCELLED'],
    ]);

    // The next turn goes on from a valid conversation: the scripted model asks again what the
    // cancel cut short, and quotes what was kept.
    provider.enqueue({ custom: 'second' }, { custom: 'third' });
    const next = await collect(agent.run('continue'));
    expect(next.filter((event) => event.type === 'tool-call').map((event) => event.id)).toEqual([
      'b',
      'c',
    ]);
    expect(textOf(next)).toBe('Three questions.A=first B=second C=third');
    expectValidConversation(agent.messages);
  });

  it('mid-question: ends at once even when the UI ignores the signal', async () => {
    const { agent, provider } = scriptedAgent(THREE_ASKS, { ignoreSignal: true });
    const held = provider.hold();
    const controller = new AbortController();
    const turn = collect(agent.run('go', { signal: controller.signal }));
    const question = await held;
    controller.abort();
    const events = await turn;
    expect(endOf(events).reason).toBe('cancelled');
    expect(question.request.signal?.aborted).toBe(true);
    expectValidConversation(agent.messages);
  });

  it('keeps an answer given before the cancel', async () => {
    const { agent, provider } = scriptedAgent(THREE_ASKS);
    const held = provider.hold();
    const controller = new AbortController();
    const events: string[] = [];
    const turn = (async () => {
      for await (const event of agent.run('go', { signal: controller.signal })) {
        events.push(event.type === 'tool-result' ? `result:${event.result.output}` : event.type);
        // Cancel while the UI handles the result of the answered question.
        if (event.type === 'tool-result') controller.abort();
      }
    })();
    (await held).answer({ custom: 'kept' });
    await turn;
    expect(events.filter((type) => type !== 'text')).toEqual([
      'tool-call',
      'result:kept',
      'turn-end',
    ]);
    const results = agent.messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.content)).toEqual([
      'kept',
      expect.stringContaining('TURN_CANCELLED'),
      expect.stringContaining('TURN_CANCELLED'),
    ]);
  });

  it('breaking out of the iteration cancels the turn cleanly', async () => {
    const { agent, provider } = scriptedAgent(THREE_ASKS);
    for await (const event of agent.run('go')) {
      if (event.type === 'tool-call') break;
    }
    expect(agent.running).toBe(false);
    expect(provider.requests).toHaveLength(0); // the announced ask never ran
    expectValidConversation(agent.messages);
    expect(agent.messages.filter((message) => message.role === 'tool')).toHaveLength(3);

    // Breaking mid-stream stops the model's stream and aborts its request.
    const control = controlledModel();
    const streaming = createAgent({ model: control.model, interaction: createUserInteraction() });
    const turn = (async () => {
      for await (const event of streaming.run('hi')) {
        if (event.type === 'text') break;
      }
    })();
    const request = await control.request(0);
    control.send({ type: 'text-delta', text: 'Hel' });
    await turn;
    expect(request.signal.aborted).toBe(true);
    expect(control.returned).toBe(1);
    expect(streaming.running).toBe(false);
    expect(streaming.messages.at(-1)).toEqual({ role: 'assistant', content: 'Hel' });
  });

  it('refuses a second turn while one runs, with a stable code', async () => {
    const { agent, provider } = scriptedAgent({
      steps: [{ toolCalls: [ask('a', 'A?')] }, { text: 'Done: {{answer:a}}' }],
    });
    const held = provider.hold();
    const first = collect(agent.run('one'));
    const question = await held;
    expect(agent.running).toBe(true);
    const second = agent.run('two');
    await expect(second.next()).rejects.toSatisfy((error) => isAgentError(error, 'AGENT_BUSY'));
    question.answer({ custom: 'yes' });
    const events = await first;
    expect(textOf(events)).toBe('Done: yes');
    expect(agent.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(agent.running).toBe(false);
  });

  it('leaves no listener on the caller signal after many turns', async () => {
    const steps = Array.from({ length: 100 }, (_, index) => ({
      toolCalls: [ask(`x${index}`, 'X?')],
    }));
    const { agent, provider } = scriptedAgent({ steps }, { agent: { maxSteps: 1 } });
    const controller = new AbortController();
    for (let index = 0; index < 100; index++) {
      provider.enqueue({ custom: `answer ${index}` });
      const events = await collect(agent.run(`turn ${index}`, { signal: controller.signal }));
      expect(endOf(events).reason).toBe('step-limit');
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    }
    expectValidConversation(agent.messages);
  });
});
