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

describe('the demo script', () => {
  it('is a valid script', () => {
    expect(validateScript(DEMO_SCRIPT, 'demo')).toBe(DEMO_SCRIPT);
  });

  it('asks four kinds of question in one turn and sums up the answers', async () => {
    const { agent, provider, model } = scriptedAgent(DEMO_SCRIPT, {
      answers: [
        { label: 'TypeScript' },
        { custom: 'my-app' },
        { custom: 'CockroachDB' },
        { label: 'Serverless' },
      ],
    });
    const events = await collect(agent.run('hello'));
    expect(endOf(events).reason).toBe('finished');
    expect(model.requests).toHaveLength(5);

    const [language, name, database, hosting] = provider.requests;
    // (1) a choice with a recommended option, listed first so that "1" picks it
    expect(language?.options?.[0]).toMatchObject({ label: 'TypeScript', recommended: true });
    expect(language?.options?.filter((option) => option.recommended)).toHaveLength(1);
    expect(acceptsCustomAnswer(language as AskUserQuestionRequest)).toBe(false);
    // (2) free-form
    expect(name?.options).toBeUndefined();
    expect(name?.question).toBe('What should the project be called?');
    // (3) a choice that also takes a typed answer, quoting the name
    expect(database?.options?.length).toBeGreaterThan(1);
    expect(acceptsCustomAnswer(database as AskUserQuestionRequest)).toBe(true);
    expect(database?.question).toBe('Which database should my-app use?');
    // (4) a choice that does not
    expect(hosting?.options?.length).toBeGreaterThan(1);
    expect(acceptsCustomAnswer(hosting as AskUserQuestionRequest)).toBe(false);
    for (const request of provider.requests) expect(request.header).toBeTruthy();

    // (5) the summary quotes every answer
    const summary = textOf(events);
    expect(summary).toContain('- Project: my-app');
    expect(summary).toContain('- Language: TypeScript');
    expect(summary).toContain('- Database: CockroachDB');
    expect(summary).toContain('- Hosting: serverless functions');
    expect(summary).toMatch(/Here is the plan:/);
    expectValidConversation(agent.messages);
  });

  it('sums up gracefully when input ends after two answers, as with piped input', async () => {
    const { agent } = scriptedAgent(DEMO_SCRIPT, {
      answers: [
        { label: 'TypeScript' },
        { custom: 'my-app' },
        { error: 'INPUT_CLOSED' },
        { error: 'INPUT_CLOSED' },
      ],
    });
    const summary = textOf(await collect(agent.run('hello')));
    expect(summary).toContain('- Project: my-app');
    expect(summary).toContain('- Database: (not chosen)');
    expect(summary).toContain('- Hosting: (not chosen)');
    expect(summary).not.toContain('{{');
  });

  it('says in one line that it is over when the person writes again', async () => {
    const { agent } = scriptedAgent(DEMO_SCRIPT, {
      answers: [{ label: 'Go' }, { custom: 'x' }, { label: 'SQLite' }, { label: 'Containers' }],
    });
    await collect(agent.run('hello'));
    const after = textOf(await collect(agent.run('more?')));
    expect(after).toBe(DEMO_SCRIPT.end);
    expect(after).toContain('DEEPSEEK_API_KEY');
    expect(after).not.toContain('\n');
  });
});
