import { createUserInteraction, HarnessError } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/loop/agent-event.js';
import type { AgentTool, ToolContext } from '../../src/loop/agent-tool.js';
import { createAgent } from '../../src/loop/create-agent.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { deferred, recordingModel } from '../../src/testing.js';
import { collect, endOf, expectValidConversation, scriptedAgent } from '../support/harness.js';

/** One step making the given call, then a step that quotes its result and ends the turn. */
function oneCall(
  call: Script['steps'][number]['toolCalls'] extends readonly (infer C)[] | undefined ? C : never,
): Script {
  return {
    steps: [{ toolCalls: [{ id: 'c1', ...call }] }, { text: 'got: {{answer:c1}}' }],
  };
}

function resultOf(events: readonly AgentEvent[]) {
  const result = events.find((event) => event.type === 'tool-result');
  if (result?.type !== 'tool-result') throw new Error('no tool-result event');
  return result.result;
}

const echo: AgentTool = {
  name: 'echo',
  description: 'Echoes its text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  title: (args) => `Echo ${(args as { text: string }).text}`,
  execute: async (args) => ({ ok: true, output: (args as { text: string }).text }),
};

describe('tool failures go back to the model and the turn goes on', () => {
  it('an unknown tool', async () => {
    const { agent, model } = scriptedAgent(oneCall({ name: 'launch_rockets' }), {
      agent: { tools: [echo] },
    });
    const events = await collect(agent.run('go'));
    expect(resultOf(events)).toEqual({
      ok: false,
      output: expect.any(String),
      error: {
        name: 'AgentError',
        code: 'UNKNOWN_TOOL',
        message:
          'There is no tool named "launch_rockets". The tools you can call are: ask_user_question, echo.',
      },
    });
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({
      name: 'launch_rockets',
      title: 'launch_rockets',
    });
    expect(endOf(events).reason).toBe('finished');
    // The model sees the error as the tool message.
    const toolMessage = model.requests[1]?.messages.at(-1);
    expect(toolMessage).toMatchObject({
      role: 'tool',
      toolCallId: 'c1',
      error: { code: 'UNKNOWN_TOOL' },
    });
    expect(JSON.parse((toolMessage as { content: string }).content)).toEqual({
      error: expect.objectContaining({ code: 'UNKNOWN_TOOL' }),
    });
  });

  it('malformed JSON arguments', async () => {
    const execute = vi.fn(echo.execute);
    const { agent } = scriptedAgent(oneCall({ name: 'echo', arguments: '{"text": "unclosed' }), {
      agent: { tools: [{ ...echo, execute }] },
    });
    const events = await collect(agent.run('go'));
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({
      arguments: '{"text": "unclosed',
      title: 'echo',
    });
    expect(resultOf(events)).toMatchObject({
      ok: false,
      error: {
        name: 'AgentError',
        code: 'INVALID_ARGUMENTS',
        message: expect.stringMatching(/^The arguments of "echo" are not valid JSON \(.+\)\./),
      },
    });
    expect(execute).not.toHaveBeenCalled();
    expect(endOf(events).reason).toBe('finished');
  });

  it('an invalid question (the contract names the field)', async () => {
    const { agent, provider } = scriptedAgent(
      oneCall({ name: 'ask_user_question', arguments: { header: 'No question' } }),
    );
    const events = await collect(agent.run('go'));
    expect(resultOf(events)).toMatchObject({
      ok: false,
      error: {
        name: 'UserInteractionError',
        code: 'INVALID_REQUEST',
        message: expect.stringContaining('`question`'),
      },
    });
    expect(provider.requests).toHaveLength(0);
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({ title: 'Question' });
  });

  it.each(['ASK_DECLINED', 'ASK_CANCELLED', 'INPUT_CLOSED', 'ASK_FAILED'] as const)(
    'a question the UI fails with %s',
    async (code) => {
      const { agent } = scriptedAgent(
        oneCall({ name: 'ask_user_question', arguments: { question: 'Sure?' } }),
        { answers: [{ error: code, message: `Scripted ${code}.` }] },
      );
      const events = await collect(agent.run('go'));
      expect(resultOf(events)).toMatchObject({
        ok: false,
        error: { name: 'UserInteractionError', code, message: `Scripted ${code}.` },
      });
      expect(endOf(events).reason).toBe('finished');
      expectValidConversation(agent.messages);
    },
  );

  it('a question with no UI, and a free-form question a UI cannot show', async () => {
    const script = oneCall({ name: 'ask_user_question', arguments: { question: 'Name?' } });
    const noUi = createAgent({
      model: createScriptedModel(script),
      interaction: createUserInteraction(),
    });
    expect(resultOf(await collect(noUi.run('go')))).toMatchObject({
      ok: false,
      error: { code: 'NO_PROVIDER' },
    });
    const { agent, provider } = scriptedAgent(script, {
      capabilities: { freeForm: false, customAnswer: false },
    });
    expect(resultOf(await collect(agent.run('go')))).toMatchObject({
      ok: false,
      error: { code: 'UNSUPPORTED' },
    });
    expect(provider.requests).toHaveLength(0);
  });

  it('a tool that throws: a HarnessError keeps its code, anything else is generic', async () => {
    class QuotaError extends HarnessError {
      constructor() {
        super('The disk quota is exceeded.', 'QUOTA_EXCEEDED');
        this.name = 'QuotaError';
      }
    }
    const throwing = (error: unknown): AgentTool => ({
      ...echo,
      execute: async () => {
        throw error;
      },
    });
    const harness = scriptedAgent(oneCall({ name: 'echo', arguments: { text: 'x' } }), {
      agent: { tools: [throwing(new QuotaError())] },
    });
    expect(resultOf(await collect(harness.agent.run('go')))).toEqual({
      ok: false,
      output: JSON.stringify({
        error: {
          name: 'QuotaError',
          code: 'QUOTA_EXCEEDED',
          message: 'The disk quota is exceeded.',
        },
      }),
      error: { name: 'QuotaError', code: 'QUOTA_EXCEEDED', message: 'The disk quota is exceeded.' },
    });

    const plain = scriptedAgent(oneCall({ name: 'echo', arguments: { text: 'x' } }), {
      agent: { tools: [throwing(new Error('ENOENT /secret/path'))] },
    });
    const events = await collect(plain.agent.run('go'));
    expect(resultOf(events)).toMatchObject({
      ok: false,
      error: { name: 'Error', code: 'INTERNAL_ERROR' },
    });
    expect(JSON.stringify(events)).not.toContain('/secret/path');
    expect(endOf(events).reason).toBe('finished');
  });

  it('a tool that returns something other than a result, or whose title throws', async () => {
    const broken: AgentTool = {
      ...echo,
      title: () => {
        throw new Error('no title');
      },
      execute: async () => 'just a string' as never,
    };
    const { agent } = scriptedAgent(oneCall({ name: 'echo', arguments: { text: 'x' } }), {
      agent: { tools: [broken] },
    });
    const events = await collect(agent.run('go'));
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({ title: 'echo' });
    expect(resultOf(events)).toMatchObject({ ok: false, error: { code: 'INTERNAL_ERROR' } });
  });
});

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
