import { createUserInteraction, HarnessError } from 'dsh-user-interaction';
import { describe, expect, it, vi } from 'vitest';
import type { AgentTool } from '../../src/loop/agent-tool.js';
import { createAgent } from '../../src/loop/create-agent.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { collect, endOf, expectValidConversation, scriptedAgent } from '../support/harness.js';
import { echo, oneCall, resultOf } from '../support/tool-calls.js';

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
