import {
  ASK_USER_QUESTION_PARAMETERS,
  createUserInteraction,
  describeAskUserQuestionTool,
  type UserInteractionCapabilities,
} from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import { createAgent, DEFAULT_MAX_STEPS } from '../../src/loop/create-agent.js';
import { DEFAULT_INSTRUCTIONS } from '../../src/loop/default-instructions.js';
import { toolCallIdOf } from '../../src/loop/tool-call-agent.js';
import { ModelError } from '../../src/models/model-error.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { controlledModel, recordingModel } from '../../src/testing.js';
import {
  collect,
  endOf,
  expectValidConversation,
  scriptedAgent,
  textOf,
} from '../support/harness.js';

const colorQuestion = {
  question: 'Which color?',
  options: [{ label: 'Red' }, { label: 'Blue', recommended: true }],
};

const COLOR_SCRIPT: Script = {
  steps: [
    {
      text: 'Let me ask.',
      toolCalls: [{ id: 'q1', name: 'ask_user_question', arguments: colorQuestion }],
    },
    { text: 'You chose {{answer:q1}}.' },
  ],
};

describe('a turn', () => {
  it('streams text, runs the ask, feeds the answer back and finishes', async () => {
    const { agent, provider, model } = scriptedAgent(COLOR_SCRIPT, {
      answers: [{ label: 'Blue' }],
    });
    const events = await collect(agent.run('hello'));

    expect(events.filter((event) => event.type === 'text').length).toBeGreaterThan(2);
    expect(events.filter((event) => event.type !== 'text')).toEqual([
      {
        type: 'tool-call',
        id: 'q1',
        name: 'ask_user_question',
        title: 'Which color?',
        arguments: colorQuestion,
      },
      {
        type: 'tool-result',
        id: 'q1',
        name: 'ask_user_question',
        result: expect.objectContaining({ ok: true, output: 'Blue' }),
      },
      { type: 'turn-end', reason: 'finished' },
    ]);
    expect(textOf(events)).toBe('Let me ask.You chose Blue.');
    expect(agent.messages).toEqual([
      { role: 'system', content: DEFAULT_INSTRUCTIONS },
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: 'Let me ask.',
        toolCalls: [
          { id: 'q1', name: 'ask_user_question', arguments: JSON.stringify(colorQuestion) },
        ],
      },
      { role: 'tool', toolCallId: 'q1', content: 'Blue' },
      { role: 'assistant', content: 'You chose Blue.' },
    ]);
    expect(model.requests).toHaveLength(2);
    expect(agent.running).toBe(false);

    // The ask carries the agent (with the call's id) and the turn's signal.
    const request = provider.requests[0];
    expect(request?.agent).toEqual({ id: 'agent-1', toolCallId: 'q1' });
    expect(request?.agent?.id).toBe(agent.id);
    expect(toolCallIdOf(request)).toBe('q1');
    expect(request?.signal).toBeInstanceOf(AbortSignal);
    expect(request?.signal?.aborted).toBe(true); // the turn's signal is released when it ends
    expect(request?.question).toBe('Which color?');
  });

  it('sends the conversation and the tool schemas at every request', async () => {
    const { agent, model } = scriptedAgent(COLOR_SCRIPT, { answers: [{ label: 'Red' }] });
    await collect(agent.run('hi'));
    const [first, second] = model.requests;
    expect(first?.tools).toEqual([
      {
        name: 'ask_user_question',
        description: describeAskUserQuestionTool(),
        parameters: ASK_USER_QUESTION_PARAMETERS,
      },
    ]);
    expect(first?.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(second?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    // A request holds a copy: what the agent adds later does not change it.
    expect(first?.messages).toHaveLength(2);
  });

  it('describes the ask tool for the capabilities of the UI at each request', async () => {
    let capabilities: UserInteractionCapabilities = { freeForm: false, customAnswer: true };
    const interaction = createUserInteraction();
    const scripted = createScriptedProvider({ answers: [{ label: 'Red' }] });
    interaction.registerProvider({
      ask: (request) => {
        capabilities = { freeForm: true, customAnswer: false };
        return scripted.ask(request);
      },
      get capabilities() {
        return capabilities;
      },
    });
    const model = recordingModel(createScriptedModel(COLOR_SCRIPT));
    const agent = createAgent({ model, interaction });
    await collect(agent.run('hi'));
    expect(model.requests.map((request) => request.tools[0]?.description)).toEqual([
      describeAskUserQuestionTool({ freeForm: false, customAnswer: true }),
      describeAskUserQuestionTool({ freeForm: true, customAnswer: false }),
    ]);
    expect(model.requests[0]?.tools[0]?.description).toContain(
      'can only show questions with options',
    );
  });

  it('keeps the conversation across turns, and the instructions can be replaced or left out', async () => {
    const script: Script = { steps: [{ text: 'One.' }, { text: 'Two.' }] };
    const { agent, model } = scriptedAgent(script, { agent: { instructions: 'Be brief.' } });
    await collect(agent.run('first'));
    const events = await collect(agent.run('second'));
    expect(textOf(events)).toBe('Two.');
    expect(model.requests[1]?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'One.' },
      { role: 'user', content: 'second' },
    ]);

    const bare = scriptedAgent(script, { agent: { instructions: '' } });
    await collect(bare.agent.run('first'));
    expect(bare.agent.messages[0]).toEqual({ role: 'user', content: 'first' });
  });

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

describe('createAgent', () => {
  const model = createScriptedModel({ steps: [{ text: 'hi' }] });
  const interaction = createUserInteraction();
  const tool = {
    name: 'echo',
    description: 'Echoes.',
    parameters: { type: 'object' },
    execute: async () => ({ ok: true as const, output: '' }),
  };

  it('rejects options that cannot work', () => {
    expect(() => createAgent({ model, interaction, tools: [tool, tool] })).toThrow(
      'is given more than once',
    );
    expect(() =>
      createAgent({ model, interaction, tools: [{ ...tool, name: 'ask_user_question' }] }),
    ).toThrow('is built in');
    expect(() =>
      createAgent({ model, interaction, tools: [{ ...tool, name: 'has space' }] }),
    ).toThrow(TypeError);
    expect(() => createAgent({ model, interaction, maxSteps: 0 })).toThrow('maxSteps');
    expect(() => createAgent({ model, interaction, questionTimeoutMs: -1 })).toThrow(
      'questionTimeoutMs',
    );
    expect(() => createAgent({ model, interaction, id: ' ' })).toThrow('id');
    expect(() => createAgent({ model, interaction, instructions: 3 as never })).toThrow(
      'instructions',
    );
    expect(() => createAgent({ model: {} as never, interaction })).toThrow('model');
    expect(() => createAgent({ model, interaction: {} as never })).toThrow('interaction');
    const agent = createAgent({ model, interaction });
    expect(() => agent.run(42 as never)).toThrow(TypeError);
  });

  it('gives each agent its own id unless one is given', () => {
    const a = createAgent({ model, interaction });
    const b = createAgent({ model, interaction });
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(createAgent({ model, interaction, id: 'session-7' }).id).toBe('session-7');
  });
});
