import {
  ASK_USER_QUESTION_PARAMETERS,
  createUserInteraction,
  describeAskUserQuestionTool,
  type UserInteractionCapabilities,
} from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import { DEFAULT_INSTRUCTIONS } from '../../src/loop/default-instructions.js';
import { toolCallIdOf } from '../../src/loop/tool-call-agent.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { recordingModel } from '../../src/testing.js';
import { collect, scriptedAgent, textOf } from '../support/harness.js';

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
});
