import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { recordingModel } from '../../src/testing.js';
import { collect, endOf, expectValidConversation } from '../support/harness.js';
import {
  COMMAND,
  countedTool,
  RESUMED_ENTRIES,
  recorder,
  resumedAgent,
  SCRIPT,
  stoppedAtSecondQuestion,
} from '../support/resumed-conversations.js';

describe('a turn that stopped while something waited for the person', () => {
  it('asks the same question again for the same call, and its answer goes to that call', async () => {
    const run = countedTool('run', COMMAND);
    const { agent, model, provider, stored } = resumedAgent(
      RESUMED_ENTRIES.questionWaiting,
      [{ custom: 'Bob' }, { choice: 'allow_once' }],
      [run],
    );
    expect(agent.resumable).toBe(true);
    const events = await collect(agent.resume());

    expect(endOf(events).reason).toBe('finished');
    expect(provider.requests.map((request) => request.question)).toEqual(['Name?']);
    expect(provider.permissions.map((request) => request.toolCallId)).toEqual(['c']);
    expect(run.runs).toBe(1);
    const [request] = model.requests;
    expect(model.requests).toHaveLength(1);
    // The model gets the stored step (its reasoning intact), the answer and the command's output.
    const messages = request?.messages ?? [];
    expectValidConversation(messages);
    expect(messages.find((message) => message.role === 'assistant')).toMatchObject({
      reasoning: { text: 'I must ask first.', field: 'reasoning_content' },
    });
    const results = messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.toolCallId)).toEqual(['q', 'c']);
    expect(results[0]?.content).toContain('Bob');
    expect(results[1]?.content).toBe('run ran');
    expect(stored.entries.map((entry) => entry.type)).toEqual([
      'posed',
      'tool-result',
      'posed',
      'approval',
      'tool-result',
      'assistant',
      'turn-end',
    ]);
    expect(stored.entries.some((entry) => 'interrupted' in entry)).toBe(false);
    expect(agent.resumable).toBe(false);
  });

  it('uses an answer stored before the stop as stored, and runs the calls that had not started', async () => {
    const run = countedTool('run', COMMAND);
    const conversation = stoppedAtSecondQuestion({ ok: true, output: '{"answer":"Cy"}' }, [
      { id: 'c', name: 'run', arguments: '{}' },
    ]);
    const { agent, model, provider } = resumedAgent(
      conversation,
      [{ custom: 'Oslo' }, { choice: 'allow_once' }],
      [run],
    );
    expect(agent.resumable).toBe(true);
    endOf(await collect(agent.resume()));
    expect(provider.requests.map((request) => request.question)).toEqual(['Town?']);
    expect(provider.permissions).toHaveLength(1);
    expect(run.runs).toBe(1);
    const results = model.requests[0]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(results.map((result) => result.toolCallId)).toEqual(['q', 'q2', 'c']);
    expect(results[0]?.content).toBe('{"answer":"Cy"}');
    expect(results[1]?.content).toContain('Oslo');
  });

  it('is not resumed when nothing waits any more: an answer stored, then a stop while the model worked', async () => {
    const stored = recorder();
    const model = recordingModel(createScriptedModel(SCRIPT));
    const agent = createAgent({
      model,
      interaction: createUserInteraction(),
      conversation: [
        ...RESUMED_ENTRIES.questionWaiting,
        { type: 'tool-result', toolCallId: 'q', result: { ok: true, output: '{"answer":"Cy"}' } },
      ],
      recorder: stored.recorder,
      tools: [countedTool('run', COMMAND)],
    });
    // Nothing is asked and no model request is made on its own: the turn is closed as before.
    expect(agent.resumable).toBe(false);
    expect(await collect(agent.resume())).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(stored.entries.map((entry) => entry.type)).toEqual(['tool-result', 'turn-end']);
  });

  it('keeps a declined question declined', async () => {
    const conversation = stoppedAtSecondQuestion({
      ok: false,
      output:
        '{"error":{"name":"UserInteractionError","code":"ASK_DECLINED","message":"declined"}}',
      error: { name: 'UserInteractionError', code: 'ASK_DECLINED', message: 'declined' },
    });
    const { agent, provider, model } = resumedAgent(conversation, [{ custom: 'Oslo' }], []);
    endOf(await collect(agent.resume()));
    expect(provider.requests.map((request) => request.question)).toEqual(['Town?']);
    expect(model.requests[0]?.messages.filter((m) => m.role === 'tool')[0]).toMatchObject({
      error: { code: 'ASK_DECLINED' },
    });
  });

  it('is closed as before when a new prompt comes first, and the conversation stays valid', async () => {
    const { agent, model, stored } = resumedAgent(
      RESUMED_ENTRIES.questionWaiting,
      [{ custom: 'Dee' }, { choice: 'reject_once' }],
      [countedTool('run', COMMAND)],
    );
    expect(agent.resumable).toBe(true);
    endOf(await collect(agent.run('Something else.')));
    expect(agent.resumable).toBe(false);
    expect(stored.entries.slice(0, 3).map((entry) => entry.type)).toEqual([
      'tool-result',
      'tool-result',
      'turn-end',
    ]);
    expect(stored.entries[2]).toEqual({ type: 'turn-end', reason: 'cancelled', interrupted: true });
    expectValidConversation(model.requests[0]?.messages ?? []);
    // Nothing to go on with now.
    expect(await collect(agent.resume())).toEqual([]);
  });

  it('can still be cancelled at the question asked again', async () => {
    const controller = new AbortController();
    const interaction = createUserInteraction();
    interaction.registerProvider({
      id: 'cancelling',
      ask: () => controller.abort(),
    } as never);
    const stored = recorder();
    const agent = createAgent({
      model: recordingModel(createScriptedModel(SCRIPT)),
      interaction,
      conversation: RESUMED_ENTRIES.questionWaiting,
      recorder: stored.recorder,
      tools: [countedTool('run', COMMAND)],
    });
    const events = await collect(agent.resume({ signal: controller.signal }));
    expect(endOf(events).reason).toBe('cancelled');
    expect(stored.entries.at(-1)).toEqual({ type: 'turn-end', reason: 'cancelled' });
  });

  it('closes as before a turn that stopped with nothing put to the person', async () => {
    const stored = recorder();
    const agent = createAgent({
      model: createScriptedModel(SCRIPT),
      interaction: createUserInteraction(),
      conversation: RESUMED_ENTRIES.questionWaiting.slice(0, 2),
      recorder: stored.recorder,
    });
    expect(agent.resumable).toBe(false);
    expect(stored.entries.at(-1)).toEqual({
      type: 'turn-end',
      reason: 'cancelled',
      interrupted: true,
    });
  });
});
