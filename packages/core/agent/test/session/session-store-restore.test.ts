import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import type { ModelEvent } from '../../src/models/model.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { openSessionStore } from '../../src/session/session-store.js';
import { stepModel } from '../../src/testing.js';
import { collect, endOf, expectValidConversation, textOf } from '../support/harness.js';
import { agentOn, TWO_QUESTIONS } from '../support/session-agents.js';
import { sessionLines, stateFolder } from '../support/session-files.js';

describe('the session store', () => {
  it('gives the conversation back as it happened: the model gets the same messages, reasoning and its field included', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const first = store.create({ cwd: '/' });
    const call = { id: 'call_7', name: 'ask_user_question', arguments: '{"question":"Name?"}' };
    const model = stepModel(
      async function* (): AsyncGenerator<ModelEvent> {
        yield { type: 'reasoning-delta', text: 'I need ', field: 'reasoning_content' };
        yield { type: 'reasoning-delta', text: 'a name.' };
        yield { type: 'text-delta', text: 'Asking.' };
        yield { type: 'tool-call', call };
        yield { type: 'finish', reason: 'tool-calls' };
      },
      async function* (): AsyncGenerator<ModelEvent> {
        yield { type: 'text-delta', text: 'Thanks.' };
        yield { type: 'finish', reason: 'stop' };
      },
      async function* (request): AsyncGenerator<ModelEvent> {
        yield { type: 'text-delta', text: `I see ${request.messages.length} messages.` };
        yield { type: 'finish', reason: 'stop' };
      },
    );
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ custom: 'Ann' }] }));
    const agent = createAgent({ model, interaction, recorder: first.recorder });
    endOf(await collect(agent.run('Start.')));
    await first.close();

    const restored = await store.open(first.id);
    expect(restored.warnings).toEqual([]);
    const again = createAgent({
      model,
      interaction,
      conversation: restored.entries,
      recorder: restored.recorder,
    });
    expect(again.messages).toEqual(agent.messages);
    expect(again.messages[2]).toEqual({
      role: 'assistant',
      content: 'Asking.',
      toolCalls: [call],
      reasoning: { text: 'I need a name.', field: 'reasoning_content' },
    });
    endOf(await collect(again.run('And now?')));
    expect(model.requests[2]?.messages).toEqual(again.messages.slice(0, -1));
    await restored.close();
    expect(sessionLines(dir, first.id).filter((line) => line.type === 'prompt')).toHaveLength(2);
  });

  it('goes on with a turn the program left in the middle of a question: the answers given before stay, the waiting one is asked again', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({ answers: [{ custom: 'Ann' }] });
    interaction.registerProvider(provider);
    const agent = createAgent({
      model: createScriptedModel(TWO_QUESTIONS),
      interaction,
      recorder: session.recorder,
    });
    const held = provider.hold();
    const turn = collect(agent.run('Greet me.'));
    await held;
    // The program stops here: its file stays as it is (the lock is tested apart).
    await session.close();
    const linesBefore = sessionLines(dir, session.id);

    const restored = await store.open(session.id);
    expect(restored.entries.slice(2)).toEqual([
      { type: 'posed', toolCallId: 'name', kind: 'question' },
      expect.objectContaining({ type: 'tool-result', toolCallId: 'name' }),
      { type: 'posed', toolCallId: 'color', kind: 'question' },
    ]);
    expect(restored.entries[3]).toMatchObject({ toolCallId: 'name', result: { output: 'Ann' } });
    // Nothing closes the turn: the file is as the program left it.
    expect(sessionLines(dir, session.id)).toEqual(linesBefore);
    // The question the crash cut short is asked again, and only that one; the turn goes on.
    const again = agentOn(restored, TWO_QUESTIONS, [{ label: 'Red' }]);
    expect(again.resumable).toBe(true);
    const events = await collect(again.resume());
    expect(events.filter((event) => event.type === 'tool-call').map((event) => event.id)).toEqual([
      'color',
    ]);
    expect(endOf(events).reason).toBe('finished');
    expect(textOf(events)).toBe('Hello Ann in Red.');
    expectValidConversation(again.messages);
    await restored.close();
    expect(
      sessionLines(dir, session.id)
        .slice(-4)
        .map((line) => line.type),
    ).toEqual(['posed', 'tool-result', 'assistant', 'turn-end']);
    provider.dispose();
    await turn;
  });

  it('closes a turn the program left with nothing put to the person: the next turn follows a valid conversation', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    session.recorder.add({ type: 'prompt', text: 'Greet me.' });
    session.recorder.add({
      type: 'assistant',
      text: 'Two questions.',
      toolCalls: [{ id: 'name', name: 'ask_user_question', arguments: '{"question":"Name?"}' }],
    });
    await session.recorder.flush();
    await session.close();

    const restored = await store.open(session.id);
    expect(restored.entries.slice(2)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'name',
        result: {
          ok: false,
          output: expect.any(String),
          error: {
            name: 'AgentError',
            code: 'TURN_CANCELLED',
            message: expect.stringContaining('the agent stopped before the turn ended'),
          },
        },
      },
      { type: 'turn-end', reason: 'cancelled', interrupted: true },
    ]);
    // The closing lines are on disk.
    expect(
      sessionLines(dir, session.id)
        .slice(-2)
        .map((line) => line.type),
    ).toEqual(['tool-result', 'turn-end']);
    const again = agentOn(restored, TWO_QUESTIONS);
    expect(again.resumable).toBe(false);
    expectValidConversation(again.messages);
    await restored.close();
  });
});
