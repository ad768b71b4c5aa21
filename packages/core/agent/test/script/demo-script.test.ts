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

  it('starts again when the person writes after the end', async () => {
    const { agent, provider } = scriptedAgent(DEMO_SCRIPT, {
      answers: [{ label: 'Go' }, { custom: 'x' }, { label: 'SQLite' }, { label: 'Containers' }],
    });
    const first = textOf(await collect(agent.run('hello')));
    provider.enqueue(
      { label: 'Rust' },
      { custom: 'y' },
      { label: 'PostgreSQL' },
      { label: 'Serverless' },
    );
    const again = await collect(agent.run('more?'));
    expect(textOf(again)).toMatch(/^Hi! I am the dsh demo agent\./);
    expect(again.filter((event) => event.type === 'tool-call').map((event) => event.id)).toEqual([
      'language',
      'name',
      'database',
      'hosting',
    ]);
    expect(textOf(again)).toContain('- Project: y\n- Language: Rust\n- Database: PostgreSQL');
    expect(first).toContain('- Project: x\n- Language: Go');
  });

  it('asks a question again at the next message after its turn was cancelled', async () => {
    const { agent, provider } = scriptedAgent(DEMO_SCRIPT, { answers: [{ label: 'Go' }] });
    const held = provider.hold();
    const controller = new AbortController();
    const turn = collect(agent.run('hello', { signal: controller.signal }));
    expect((await held).request.question).toBe('What should the project be called?');
    controller.abort();
    expect(endOf(await turn).reason).toBe('cancelled');

    provider.enqueue({ custom: 'shop' });
    const held2 = provider.hold();
    const next = collect(agent.run('go on'));
    expect((await held2).request.question).toBe('Which database should shop use?');
    expect(provider.requests.map((request) => request.question)).toEqual([
      'Which language should the new service be written in?',
      'What should the project be called?',
      'What should the project be called?',
      'Which database should shop use?',
    ]);
    provider.dispose();
    await next;
  });
});
