import { type AskUserQuestionRequest, acceptsCustomAnswer } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { DEMO_SCRIPT } from '../../src/script/demo-script.js';
import { validateScript } from '../../src/script/validate-script.js';
import {
  collect,
  endOf,
  expectValidConversation,
  scriptedAgent,
  textOf,
} from '../support/harness.js';

const PLAN_ANSWER = {
  answers: {
    language: { label: 'TypeScript' },
    database: { custom: 'CockroachDB' },
    features: { labels: ['Metrics', 'Authentication'], custom: 'audit log' },
  },
};

describe('the demo script', () => {
  it('is a valid script', () => {
    expect(validateScript(DEMO_SCRIPT, 'demo')).toBe(DEMO_SCRIPT);
  });

  it('asks three questions at once, then a free-form one and a choice, and sums up every answer', async () => {
    const { agent, provider, model } = scriptedAgent(DEMO_SCRIPT, {
      answers: [PLAN_ANSWER, { custom: 'my-app' }, { label: 'Serverless' }],
    });
    const events = await collect(agent.run('hello'));
    expect(endOf(events).reason).toBe('finished');
    expect(model.requests).toHaveLength(4);

    // (1) one set of three questions
    expect(provider.batches).toHaveLength(1);
    const [language, database, features] = provider.batches[0]?.questions ?? [];
    // a choice with a recommended option, listed first so that "1" picks it, options only
    expect(language?.options?.[0]).toMatchObject({ label: 'TypeScript', recommended: true });
    expect(language?.options?.filter((option) => option.recommended)).toHaveLength(1);
    expect(acceptsCustomAnswer(language as AskUserQuestionRequest)).toBe(false);
    // a choice that also takes a typed answer
    expect(acceptsCustomAnswer(database as AskUserQuestionRequest)).toBe(true);
    expect(database?.multiSelect).toBeUndefined();
    // several choices, with a typed answer next to them
    expect(features?.multiSelect).toBe(true);
    expect(acceptsCustomAnswer(features as AskUserQuestionRequest)).toBe(true);
    for (const item of provider.batches[0]?.questions ?? []) expect(item.header).toBeTruthy();

    // (2) free-form and (3) a choice on its own, which an editor without forms can still show
    const [name, hosting] = provider.requests;
    expect(name?.options).toBeUndefined();
    expect(name?.question).toBe('What should the project be called?');
    expect(hosting?.question).toBe('Where will my-app run?');
    expect(acceptsCustomAnswer(hosting as AskUserQuestionRequest)).toBe(false);

    // (4) the summary quotes every answer, those of the set one by one
    const summary = textOf(events);
    expect(summary).toContain('Noted: TypeScript, with CockroachDB.');
    expect(summary).toContain('- Project: my-app');
    expect(summary).toContain('- Language: TypeScript');
    expect(summary).toContain('- Database: CockroachDB');
    expect(summary).toContain('- Features: Authentication, Metrics, audit log');
    expect(summary).toContain('- Hosting: serverless functions');
    expect(summary).toMatch(/Here is the plan:/);
    expectValidConversation(agent.messages);
  });

  it('sums up with its fallbacks when the set is refused, as by an editor without forms', async () => {
    const { agent } = scriptedAgent(DEMO_SCRIPT, {
      answers: [{ error: 'UNSUPPORTED' }, { error: 'UNSUPPORTED' }, { label: 'Containers' }],
    });
    const summary = textOf(await collect(agent.run('hello')));
    expect(summary).toContain('Noted: no language for now, with no database yet.');
    expect(summary).toContain('- Language: (not chosen)');
    expect(summary).toContain('- Features: (none chosen)');
    expect(summary).toContain('- Hosting: containers');
    expect(summary).not.toContain('{{');
  });

  it('sums up gracefully when input ends after the set, as with piped input', async () => {
    const { agent } = scriptedAgent(DEMO_SCRIPT, {
      answers: [PLAN_ANSWER, { error: 'INPUT_CLOSED' }, { error: 'INPUT_CLOSED' }],
    });
    const summary = textOf(await collect(agent.run('hello')));
    expect(summary).toContain('- Language: TypeScript');
    expect(summary).toContain('- Project: (no name given)');
    expect(summary).toContain('- Hosting: (not chosen)');
    expect(summary).not.toContain('{{');
  });

  it('says in one line that it is over when the person writes again', async () => {
    const { agent } = scriptedAgent(DEMO_SCRIPT, {
      answers: [
        {
          answers: {
            language: { label: 'Go' },
            database: { label: 'SQLite' },
            features: { label: 'API docs' },
          },
        },
        { custom: 'x' },
        { label: 'Containers' },
      ],
    });
    await collect(agent.run('hello'));
    const after = textOf(await collect(agent.run('more?')));
    expect(after).toBe(DEMO_SCRIPT.end);
    expect(after).toContain('DEEPSEEK_API_KEY');
    expect(after).not.toContain('\n');
  });
});
