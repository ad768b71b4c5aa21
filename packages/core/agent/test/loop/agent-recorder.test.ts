import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/agent-event.js';
import type { ConversationEntry, ConversationRecorder } from '../../src/loop/conversation-entry.js';
import { createAgent } from '../../src/loop/create-agent.js';
import { replayConversation } from '../../src/loop/replay-conversation.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { SessionError } from '../../src/session/session-error.js';
import { type Deferred, deferred, recordingModel } from '../../src/testing.js';
import { collect, endOf, expectValidConversation } from '../support/harness.js';

const ONE_QUESTION: Script = {
  steps: [
    {
      text: 'Asking.',
      toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: { question: 'Name?' } }],
    },
    { text: 'Hi {{answer:q}}.' },
  ],
};

/** A recorder that keeps the entries, and whose flushes the test settles one by one. */
function heldRecorder() {
  const entries: ConversationEntry[] = [];
  const flushes: { at: number; done: Deferred<void> }[] = [];
  const arrived: Deferred<void>[] = [];
  const recorder: ConversationRecorder = {
    add: (entry) => void entries.push(entry),
    flush() {
      const done = deferred();
      flushes.push({ at: entries.length, done });
      arrived[flushes.length - 1]?.resolve();
      return done.promise;
    },
  };
  return {
    recorder,
    entries,
    flushes,
    /** Resolves when the n-th flush (0-based) is asked for. */
    flushAsked(index: number) {
      arrived[index] ??= deferred();
      if (flushes.length > index) arrived[index].resolve();
      return arrived[index].promise;
    },
  };
}

function agentWith(recorder: ConversationRecorder, answers = [{ custom: 'Ann' }]) {
  const interaction = createUserInteraction();
  interaction.registerProvider(createScriptedProvider({ answers }));
  const model = recordingModel(createScriptedModel(ONE_QUESTION));
  return { agent: createAgent({ model, interaction, recorder }), model };
}

describe('an agent with a recorder', () => {
  it('stores an answer before it goes on with it, and the turn’s end before it reports it', async () => {
    const held = heldRecorder();
    const { agent, model } = agentWith(held.recorder);
    const events: AgentEvent[] = [];
    const turn = (async () => {
      for await (const event of agent.run('Hello.')) events.push(event);
    })();

    await held.flushAsked(0);
    // The answer is written, not yet stored: nothing goes on with it.
    expect(held.entries.map((entry) => entry.type)).toEqual([
      'prompt',
      'assistant',
      'posed',
      'tool-result',
    ]);
    expect(held.flushes[0]?.at).toBe(4);
    expect(events.some((event) => event.type === 'tool-result')).toBe(false);
    expect(model.requests).toHaveLength(1);
    held.flushes[0]?.done.resolve();

    await held.flushAsked(1);
    expect(model.requests).toHaveLength(2);
    expect(held.entries.at(-1)).toEqual({ type: 'turn-end', reason: 'finished' });
    expect(events.some((event) => event.type === 'turn-end')).toBe(false);
    held.flushes[1]?.done.resolve();
    await turn;
    expect(events.at(-1)).toEqual({ type: 'turn-end', reason: 'finished' });
  });

  it('records a turn cancelled by stopping the iteration: open calls closed, the end written', async () => {
    const entries: ConversationEntry[] = [];
    const recorder = {
      add: (entry: ConversationEntry) => void entries.push(entry),
      flush: async () => {},
    };
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider());
    const agent = createAgent({ model: createScriptedModel(ONE_QUESTION), interaction, recorder });
    for await (const event of agent.run('Hello.')) if (event.type === 'tool-call') break;
    expect(entries.slice(2)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'q',
        result: expect.objectContaining({
          ok: false,
          error: expect.objectContaining({ code: 'TURN_CANCELLED' }),
        }),
      },
      { type: 'turn-end', reason: 'cancelled' },
    ]);
  });

  it('ends the turn with the store’s error when an answer cannot be stored, once; the next turn goes on', async () => {
    const failure = new SessionError(
      'Cannot save the conversation (ENOSPC).',
      'SESSION_WRITE_FAILED',
    );
    let reported = false;
    const recorder: ConversationRecorder = {
      add: () => {},
      async flush() {
        if (reported) return;
        reported = true;
        throw failure;
      },
    };
    const { agent, model } = agentWith(recorder, [{ custom: 'Ann' }, { custom: 'Bob' }]);
    const events = await collect(agent.run('Hello.'));
    expect(endOf(events)).toEqual({
      type: 'turn-end',
      reason: 'error',
      error: { name: 'SessionError', code: 'SESSION_WRITE_FAILED', message: failure.message },
    });
    // The model never went on with the answer that could not be stored.
    expect(model.requests).toHaveLength(1);
    expectValidConversation(agent.messages);
    expect(endOf(await collect(agent.run('Again.')))).toEqual({
      type: 'turn-end',
      reason: 'finished',
    });
  });
});

describe('an agent given a conversation', () => {
  it('goes on with it: the model receives it in order, and a turn left unfinished is closed and recorded', async () => {
    const conversation: ConversationEntry[] = [
      { type: 'prompt', text: 'Hello.' },
      {
        type: 'assistant',
        text: 'Asking.',
        toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: '{"question":"Name?"}' }],
        reasoning: { text: 'I need it.', field: 'reasoning_content' },
      },
    ];
    const entries: ConversationEntry[] = [];
    const recorder = {
      add: (entry: ConversationEntry) => void entries.push(entry),
      flush: async () => {},
    };
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ custom: 'Ann' }] }));
    const model = recordingModel(createScriptedModel(ONE_QUESTION));
    const agent = createAgent({ model, interaction, conversation, recorder, instructions: '' });
    expect(entries.map((entry) => entry.type)).toEqual(['tool-result', 'turn-end']);
    expect(entries[1]).toEqual({ type: 'turn-end', reason: 'cancelled', interrupted: true });
    expectValidConversation(agent.messages);

    const events = await collect(agent.run('Go on.'));
    // The question the turn did not finish is asked again.
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({
      id: 'q',
      title: 'Name?',
    });
    expect(model.requests[0]?.messages.slice(0, 3)).toEqual([
      { role: 'user', content: 'Hello.' },
      {
        role: 'assistant',
        content: 'Asking.',
        toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: '{"question":"Name?"}' }],
        reasoning: { text: 'I need it.', field: 'reasoning_content' },
      },
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'q',
        error: expect.objectContaining({ code: 'TURN_CANCELLED' }),
      }),
    ]);
  });

  it('refuses entries out of order or malformed, naming the entry', () => {
    const interaction = createUserInteraction();
    const model = createScriptedModel(ONE_QUESTION);
    const make = (conversation: unknown) =>
      createAgent({ model, interaction, conversation: conversation as ConversationEntry[] });
    expect(() => make([{ type: 'assistant', text: 'x' }])).toThrow(
      'createAgent(): `conversation`[0] is an assistant step outside a turn.',
    );
    expect(() =>
      make([
        { type: 'prompt', text: 'a' },
        { type: 'prompt', text: 'b' },
      ]),
    ).toThrow('`conversation`[1] starts a turn before the previous one ended.');
    expect(() => make([{ type: 'prompt', text: 3 }])).toThrow(
      '`conversation`[0]: prompt.text must be a string.',
    );
    expect(() => make('no')).toThrow(TypeError);
  });

  it('replays as the events a live turn streams, the prompt first', () => {
    const entries: ConversationEntry[] = [
      { type: 'prompt', text: 'Hello.' },
      {
        type: 'assistant',
        text: 'Asking.',
        toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: '{"question":"Name?"}' }],
        reasoning: { text: 'Hmm.' },
      },
      {
        type: 'tool-result',
        toolCallId: 'q',
        result: { ok: true, output: 'Ann', answer: { answer: 'Ann' } },
      },
      { type: 'assistant', text: 'Hi Ann.' },
      { type: 'turn-end', reason: 'finished' },
    ];
    expect([...replayConversation(entries)]).toEqual([
      { type: 'prompt', text: 'Hello.' },
      { type: 'reasoning', text: 'Hmm.' },
      { type: 'text', text: 'Asking.' },
      {
        type: 'tool-call',
        id: 'q',
        name: 'ask_user_question',
        title: 'Name?',
        arguments: { question: 'Name?' },
      },
      {
        type: 'tool-result',
        id: 'q',
        name: 'ask_user_question',
        result: { ok: true, output: 'Ann', answer: { answer: 'Ann' } },
      },
      { type: 'text', text: 'Hi Ann.' },
      { type: 'turn-end', reason: 'finished' },
    ]);
  });
});
