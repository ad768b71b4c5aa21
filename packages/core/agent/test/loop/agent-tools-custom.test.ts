import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { describe, expect, it, vi } from 'vitest';
import type { AgentTool, ToolContext } from '../../src/loop/agent-tool.js';
import { createAgent } from '../../src/loop/create-agent.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { deferred, recordingModel } from '../../src/testing.js';
import { collect, endOf, expectValidConversation, scriptedAgent } from '../support/harness.js';
import { echo, oneCall, resultOf } from '../support/tool-calls.js';

describe('custom tools', () => {
  it('run with parsed arguments, a one-line title and their result', async () => {
    const { agent } = scriptedAgent(oneCall({ name: 'echo', arguments: { text: 'two\nlines' } }), {
      agent: { tools: [echo] },
    });
    const events = await collect(agent.run('go'));
    expect(events.find((event) => event.type === 'tool-call')).toEqual({
      type: 'tool-call',
      id: 'c1',
      name: 'echo',
      title: 'Echo two lines',
      arguments: { text: 'two\nlines' },
    });
    expect(resultOf(events)).toEqual({ ok: true, output: 'two\nlines' });
  });

  it('take empty arguments as an empty object', async () => {
    const execute = vi.fn(async () => ({ ok: true as const, output: 'ran' }));
    const { agent } = scriptedAgent(oneCall({ name: 'echo', arguments: '' }), {
      agent: { tools: [{ ...echo, title: undefined as never, execute }] },
    });
    await collect(agent.run('go'));
    expect(execute).toHaveBeenCalledWith({}, expect.anything());
  });

  it('get a context to ask through, with the call id, the signal and the time limit', async () => {
    let context: ToolContext | undefined;
    const confirm: AgentTool = {
      name: 'confirm',
      description: 'Asks for approval.',
      parameters: { type: 'object' },
      async execute(_args, toolContext) {
        context = toolContext;
        const answer = await toolContext.ask({
          question: 'Delete the branch?',
          options: [{ label: 'Yes' }, { label: 'No' }],
        });
        return { ok: true, output: answer.answer };
      },
    };
    const { agent, provider } = scriptedAgent(oneCall({ name: 'confirm' }), {
      answers: [{ label: 'No' }],
      agent: { tools: [confirm], questionTimeoutMs: 60_000 },
    });
    const events = await collect(agent.run('go'));
    expect(resultOf(events)).toEqual({ ok: true, output: 'No' });
    expect(context?.toolCallId).toBe('c1');
    expect(context?.agent).toEqual({ id: 'agent-1', toolCallId: 'c1' });
    expect(provider.requests[0]?.agent).toBe(context?.agent);
    expect(provider.requests[0]?.timeoutMs).toBe(60_000);
    expect(context?.signal.aborted).toBe(true); // released with the turn
  });

  it('are described for the UI at each request when the description is a function', async () => {
    const describe = vi.fn(({ capabilities }) => `custom answers: ${capabilities?.customAnswer}`);
    const interaction = createUserInteraction();
    interaction.registerProvider(
      createScriptedProvider({ capabilities: { freeForm: true, customAnswer: false } }),
    );
    const model = recordingModel(createScriptedModel({ steps: [{ text: 'hi' }] }));
    const agent = createAgent({ model, interaction, tools: [{ ...echo, description: describe }] });
    await collect(agent.run('go'));
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual([
      'ask_user_question',
      'echo',
    ]);
    expect(model.requests[0]?.tools[1]?.description).toBe('custom answers: false');
  });

  it('that ignore the signal do not hold a cancelled turn', async () => {
    const started = deferred();
    const stuck: AgentTool = {
      ...echo,
      execute: () => {
        started.resolve();
        return new Promise(() => {});
      },
    };
    const { agent } = scriptedAgent(oneCall({ name: 'echo', arguments: { text: 'x' } }), {
      agent: { tools: [stuck] },
    });
    const controller = new AbortController();
    const turn = collect(agent.run('go', { signal: controller.signal }));
    await started.promise;
    controller.abort();
    const events = await turn;
    // A tool that does not describe its calls may have acted before the cancel.
    expect(resultOf(events)).toMatchObject({
      ok: false,
      error: { code: 'TURN_CANCELLED', message: expect.stringContaining('It may have run') },
    });
    expect(endOf(events).reason).toBe('cancelled');
    expectValidConversation(agent.messages);
  });

  it('questions time out after questionTimeoutMs', async () => {
    const { agent, provider } = scriptedAgent(
      oneCall({ name: 'ask_user_question', arguments: { question: 'Quick?' } }),
      { agent: { questionTimeoutMs: 1 } },
    );
    const held = provider.hold();
    const events = await collect(agent.run('go'));
    expect((await held).request.timeoutMs).toBe(1);
    expect(resultOf(events)).toMatchObject({ ok: false, error: { code: 'ASK_TIMEOUT' } });
    expect(endOf(events).reason).toBe('finished');
  });
});
