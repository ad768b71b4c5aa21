import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/agent-event.js';
import { createAskUserQuestionAgentTool } from '../../src/loop/ask-user-question-agent-tool.js';
import { createAgent } from '../../src/loop/create-agent.js';
import { DEFAULT_INSTRUCTIONS } from '../../src/loop/default-instructions.js';
import type { ModelMessage } from '../../src/models/model.js';
import { isModelError, type ModelError } from '../../src/models/model-error.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { validateScript } from '../../src/script/validate-script.js';
import { collect, scriptedAgent, textOf } from '../support/harness.js';

const PLAN_CALL = {
  id: 'plan',
  name: 'ask_user_question',
  arguments: {
    questions: [
      {
        id: 'db',
        header: 'Database',
        question: 'Which database?',
        options: [{ label: 'SQLite' }, { label: 'PostgreSQL', value: 'pg' }],
      },
      { id: 'name', question: 'What name?' },
      {
        id: 'extras',
        question: 'Which extras?',
        options: [{ label: 'Docs' }, { label: 'Tests' }, { label: 'Metrics' }],
        multi_select: true,
      },
    ],
  },
};

const PLAN: Script = {
  steps: [
    { toolCalls: [PLAN_CALL] },
    {
      text: 'db={{answer:plan.db}} name={{answer:plan.name}} extras={{answer:plan.extras}} missing={{answer:plan.extras|none}}',
    },
  ],
};

function resultOf(events: readonly AgentEvent[]) {
  const result = events.find((event) => event.type === 'tool-result');
  if (result?.type !== 'tool-result') throw new Error('no tool-result event');
  return result.result;
}

describe('several questions in one tool call', () => {
  it('asks them at once and gives the model compact JSON keyed by id', async () => {
    const { agent, provider } = scriptedAgent(PLAN, {
      answers: [
        {
          answers: {
            db: { label: 'PostgreSQL' },
            name: { custom: 'my-app' },
            extras: { labels: ['Tests', 'Docs'], custom: 'a changelog' },
          },
        },
      ],
    });
    const events = await collect(agent.run('go'));
    expect(provider.batches).toHaveLength(1);
    expect(provider.batches[0]?.agent).toMatchObject({ id: 'agent-1', toolCallId: 'plan' });
    const result = resultOf(events);
    expect(result).toMatchObject({
      ok: true,
      output:
        '{"db":{"chosen":["pg"]},"name":{"typed":"my-app"},"extras":{"chosen":["Docs","Tests"],"typed":"a changelog"}}',
      answers: { answers: [{ id: 'db' }, { id: 'name' }, { id: 'extras' }] },
    });
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({
      title: 'Database, What name?, Which extras?',
    });
    // The script quotes each answer of the set on its own.
    expect(textOf(events)).toBe(
      'db=pg name=my-app extras=Docs, Tests, a changelog missing=Docs, Tests, a changelog',
    );
  });

  it('a set that fails answers none of its questions, and the quotes fall back', async () => {
    const { agent } = scriptedAgent(PLAN, { answers: [{ error: 'ASK_DECLINED' }] });
    const events = await collect(agent.run('go'));
    expect(resultOf(events)).toMatchObject({ ok: false, error: { code: 'ASK_DECLINED' } });
    expect(textOf(events)).toBe(
      'db=(no answer: ASK_DECLINED) name=(no answer: ASK_DECLINED) extras=(no answer: ASK_DECLINED) missing=none',
    );
  });

  it('is titled by the header of the set when it has one', () => {
    const tool = createAskUserQuestionAgentTool();
    expect(tool.title?.({ header: 'Plan', questions: [] })).toBe('Plan');
    expect(tool.title?.({ questions: [{ question: 'A?' }, { header: 'B' }, 7] })).toBe(
      'A?, B, Question',
    );
    expect(tool.title?.({ questions: [] })).toBe('Question');
  });

  it('fails with UNSUPPORTED when the interaction cannot ask several questions', async () => {
    const interaction = createUserInteraction();
    const model = createScriptedModel(PLAN);
    const agent = createAgent({
      model,
      interaction: { ask: interaction.ask, capabilities: undefined },
    });
    const events = await collect(agent.run('go'));
    expect(resultOf(events)).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } });
  });

  it('the default instructions say when to ask several questions at once', () => {
    expect(DEFAULT_INSTRUCTIONS).toMatch(/several independent answers/);
  });
});

describe('scripts that quote one answer of a set', () => {
  function problemOf(script: unknown): ModelError {
    try {
      validateScript(script, 'my.json');
    } catch (error) {
      expect(isModelError(error, 'SCRIPT_INVALID')).toBe(true);
      return error as ModelError;
    }
    throw new Error('the script was accepted');
  }

  it('accepts a quote of a question of an earlier call, also from raw JSON arguments', () => {
    expect(validateScript(PLAN)).toBe(PLAN);
    const raw = {
      steps: [
        { toolCalls: [{ ...PLAN_CALL, arguments: JSON.stringify(PLAN_CALL.arguments) }] },
        { text: '{{answer:plan.name}}' },
      ],
    };
    expect(validateScript(raw)).toBe(raw);
  });

  it('refuses a quote of a question the call does not ask, naming its questions', () => {
    const error = problemOf({
      steps: [{ toolCalls: [PLAN_CALL] }, { text: '{{answer:plan.nmae}}' }],
    });
    expect(error.field).toBe('steps[1].text');
    expect(error.message).toContain(
      'quotes {{answer:plan.nmae}}, but the tool call plan asks no question with the id nmae (its question ids: db, name, extras)',
    );
    const single = problemOf({
      steps: [
        { toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: { question: 'Q?' } }] },
        { text: '{{answer:q.x}}' },
      ],
    });
    expect(single.message).toContain('its question ids: none');
    expect(
      problemOf({ steps: [{ toolCalls: [PLAN_CALL] }, { text: '{{answer:other.db}}' }] }).message,
    ).toContain('no tool call of an earlier step has that id');
  });

  it('a call id with a dot is still quoted whole', () => {
    const script = {
      steps: [
        { toolCalls: [{ id: 'v1.2', name: 'ask_user_question', arguments: { question: 'Q?' } }] },
        { text: 'got {{answer:v1.2}}' },
      ],
    };
    expect(validateScript(script)).toBe(script);
  });

  it('renders a result that is not JSON, or lacks the question, as the fallback', async () => {
    const model = createScriptedModel(PLAN);
    const messages: ModelMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [] },
      { role: 'tool', toolCallId: 'plan', content: 'not json' },
    ];
    let text = '';
    for await (const event of model.stream({
      messages,
      tools: [],
      signal: new AbortController().signal,
    })) {
      if (event.type === 'text-delta') text += event.text;
    }
    expect(text).toBe(
      'db=(no answer: NO_RESULT) name=(no answer: NO_RESULT) extras=(no answer: NO_RESULT) missing=none',
    );
  });
});
