import {
  type AskUserQuestionRequest,
  type AskUserQuestionsRequest,
  acceptsCustomAnswer,
} from 'dsh-user-interaction';
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

const STACK_ANSWER = {
  answers: {
    database: { custom: 'CockroachDB' },
    features: { labels: ['Metrics', 'Authentication'], custom: 'audit log' },
    license: { label: 'Not published' },
  },
};

describe('the demo script', () => {
  it('is a valid script', () => {
    expect(validateScript(DEMO_SCRIPT, 'demo')).toBe(DEMO_SCRIPT);
  });

  it('asks every kind of question in one turn, three of them at once, and sums up the answers', async () => {
    const { agent, provider, model } = scriptedAgent(DEMO_SCRIPT, {
      answers: [
        { label: 'TypeScript' },
        { custom: 'my-app' },
        STACK_ANSWER,
        { label: 'Serverless' },
      ],
    });
    const events = await collect(agent.run('hello'));
    expect(endOf(events).reason).toBe('finished');
    expect(model.requests).toHaveLength(5);

    const [language, name, hosting] = provider.requests;
    // (1) a choice with a recommended option, listed first so that "1" picks it
    expect(language?.options?.[0]).toMatchObject({ label: 'TypeScript', recommended: true });
    expect(language?.options?.filter((option) => option.recommended)).toHaveLength(1);
    expect(acceptsCustomAnswer(language as AskUserQuestionRequest)).toBe(false);
    // (2) free-form
    expect(name?.options).toBeUndefined();
    expect(name?.question).toBe('What should the project be called?');
    // (3) three questions at once
    expect(provider.batches).toHaveLength(1);
    const [database, features, license] = provider.batches[0]?.questions ?? [];
    // a choice that also takes a typed answer, quoting the name
    expect(database?.question).toBe('Which database should my-app use?');
    expect(acceptsCustomAnswer(database as AskUserQuestionRequest)).toBe(true);
    // several choices, with a typed answer next to them
    expect(features?.multiSelect).toBe(true);
    expect(acceptsCustomAnswer(features as AskUserQuestionRequest)).toBe(true);
    // a choice with a recommended option, that takes its options only
    expect(license?.options?.filter((option) => option.recommended)).toHaveLength(1);
    expect(acceptsCustomAnswer(license as AskUserQuestionRequest)).toBe(false);
    // (4) a choice on its own that takes its options only, what an editor without forms shows
    expect(hosting?.options?.length).toBeGreaterThan(1);
    expect(acceptsCustomAnswer(hosting as AskUserQuestionRequest)).toBe(false);
    for (const request of provider.requests) expect(request.header).toBeTruthy();
    for (const item of provider.batches[0]?.questions ?? []) expect(item.header).toBeTruthy();

    // (5) the summary quotes every answer, those of the set one by one
    const summary = textOf(events);
    expect(summary).toContain('- Project: my-app');
    expect(summary).toContain('- Language: TypeScript');
    expect(summary).toContain('- Database: CockroachDB');
    expect(summary).toContain('- Features: Authentication, Metrics, audit log');
    expect(summary).toContain('- License: none (not published)');
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
    expect(summary).toContain('- Features: (none chosen)');
    expect(summary).toContain('- License: (not chosen)');
    expect(summary).toContain('- Hosting: (not chosen)');
    expect(summary).not.toContain('{{');
  });

  it('sums up with its fallbacks when the set is refused, as by an editor without forms', async () => {
    const { agent } = scriptedAgent(DEMO_SCRIPT, {
      answers: [
        { label: 'Go' },
        { error: 'UNSUPPORTED' },
        { error: 'UNSUPPORTED' },
        { label: 'Containers' },
      ],
    });
    const summary = textOf(await collect(agent.run('hello')));
    expect(summary).toContain('- Language: Go');
    expect(summary).toContain('- Database: (not chosen)');
    expect(summary).toContain('- Features: (none chosen)');
    expect(summary).toContain('- License: (not chosen)');
    expect(summary).toContain('- Hosting: containers');
  });

  it('works in its workspace at the next message, then starts again', async () => {
    const batch = (database: string, feature: string) => ({
      answers: {
        database: { label: database },
        features: { label: feature },
        license: { label: 'MIT' },
      },
    });
    const { agent, provider } = scriptedAgent(DEMO_SCRIPT, {
      answers: [
        { label: 'Go' },
        { custom: 'x' },
        batch('SQLite', 'API docs'),
        { label: 'Containers' },
      ],
    });
    const first = textOf(await collect(agent.run('hello')));
    expect(first).toContain('That is the plan. Send another message');
    // The second part: a read, a write of the whole plan and a command (without workspace tools
    // here, each fails).
    const work = await collect(agent.run('write it'));
    expect(work.filter((event) => event.type === 'tool-call').map((event) => event.name)).toEqual([
      'read_file',
      'write_file',
      'run_command',
    ]);
    expect(textOf(work)).toContain('That is the whole demo: questions, an edit and a command');
    provider.enqueue({ label: 'Rust' }, { custom: 'y' }, batch('PostgreSQL', 'API docs'), {
      label: 'Serverless',
    });
    const again = await collect(agent.run('more?'));
    expect(textOf(again)).toMatch(/^Hi! I am the dsh demo agent\./);
    expect(again.filter((event) => event.type === 'tool-call').map((event) => event.id)).toEqual([
      'language',
      'name',
      'stack',
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
    const held2 = provider.hold<AskUserQuestionsRequest>();
    const next = collect(agent.run('go on'));
    // The language is not asked again; the name is, then the set that quotes it.
    expect((await held2).request.questions[0]?.question).toBe('Which database should shop use?');
    expect(provider.requests.map((request) => request.question)).toEqual([
      'Which language should the new service be written in?',
      'What should the project be called?',
      'What should the project be called?',
    ]);
    provider.dispose();
    await next;
  });
});
