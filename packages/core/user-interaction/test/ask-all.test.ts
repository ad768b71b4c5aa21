import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  type AskUserQuestionsRequest,
  createUserInteraction,
  isUserInteractionError,
  type UserInteractionProvider,
} from '../src/index.js';
import { createScriptedProvider, type HeldQuestion } from '../src/testing.js';
import { codeOf } from './support/code-of.js';
import { FEATURES_QUESTION } from './support/features-question.js';

const LANGUAGE = {
  id: 'language',
  question: 'Which language?',
  header: 'Language',
  options: [{ label: 'TypeScript', recommended: true }, { label: 'Go' }],
  allowCustom: false,
};
const NAME = { id: 'name', question: 'What should it be called?' };
const FEATURES = {
  ...FEATURES_QUESTION,
  options: [...FEATURES_QUESTION.options, { label: 'Docs', value: 'docs' }],
  multiSelect: true,
};
const PLAN: AskUserQuestionsRequest = { header: 'Plan', questions: [LANGUAGE, NAME, FEATURES] };

function withScripted(...answers: Parameters<typeof createScriptedProvider>[0][]) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider(answers[0]);
  interaction.registerProvider(provider);
  return { interaction, provider };
}

/** A provider that shows one question at a time: it has no `askAll`. */
function oneAtATime(
  replies: ((request: AskUserQuestionRequest) => Promise<AskUserQuestionAnswer>)[],
) {
  const seen: AskUserQuestionRequest[] = [];
  const provider: UserInteractionProvider = {
    ask(request) {
      seen.push(request);
      const next = replies.shift();
      if (next === undefined) throw new Error('no reply');
      return next(request);
    },
  };
  return { provider, seen };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('askAll through a UI that shows several questions', () => {
  it('returns every answer in question order, with the frozen request own options', async () => {
    const { interaction, provider } = withScripted({
      answers: [
        {
          answers: {
            features: { labels: ['Docs', 'Authentication'], custom: 'metrics' },
            name: { custom: 'my-app' },
            language: { label: 'Go' },
          },
        },
      ],
    });
    const result = await interaction.askAll(PLAN);
    expect(result).toEqual({
      answers: [
        { id: 'language', answers: ['Go'], options: [LANGUAGE.options[1]] },
        { id: 'name', answers: ['my-app'], options: [], custom: 'my-app' },
        {
          id: 'features',
          // Option order, then the typed text, whatever order they came in.
          answers: ['auth', 'docs', 'metrics'],
          options: [FEATURES.options[0], FEATURES.options[2]],
          custom: 'metrics',
        },
      ],
    });
    const shown = provider.batches[0] as AskUserQuestionsRequest;
    expect(Object.isFrozen(shown)).toBe(true);
    expect(Object.isFrozen(shown.questions)).toBe(true);
    expect(Object.isFrozen(shown.questions[2])).toBe(true);
    expect(result.answers[2]?.options[0]).toBe(shown.questions[2]?.options?.[0]);
    expect(provider.requests).toHaveLength(0);
  });

  it('passes the agent, and the time limit as its own signal', async () => {
    const { interaction, provider } = withScripted();
    const held = provider.hold<AskUserQuestionsRequest>();
    const asking = interaction.askAll({ ...PLAN, agent: { id: 'agent-1' }, timeoutMs: 60_000 });
    const question = await held;
    expect(question.request.agent).toEqual({ id: 'agent-1' });
    expect(question.request.timeoutMs).toBe(60_000);
    expect(question.request.signal).toBeInstanceOf(AbortSignal);
    question.answer({
      answers: {
        language: { label: 'TypeScript' },
        name: { custom: 'x' },
        features: { value: 'tests' },
      },
    });
    await expect(asking).resolves.toMatchObject({ answers: [{ id: 'language' }, {}, {}] });
  });

  it.each([
    ['a decline', 'ASK_DECLINED'],
    ['a cancel', 'ASK_CANCELLED'],
    ['the end of input', 'INPUT_CLOSED'],
  ] as const)('fails the whole ask on %s', async (_name, code) => {
    const { interaction } = withScripted({ answers: [{ error: code }] });
    expect(await codeOf(interaction.askAll(PLAN))).toBe(code);
  });

  it('withdraws every question when the signal aborts, and at the time limit', async () => {
    const { interaction, provider } = withScripted();
    const turn = new AbortController();
    const held = provider.hold<AskUserQuestionsRequest>();
    const asking = interaction.askAll({ ...PLAN, signal: turn.signal });
    const question = await held;
    turn.abort('stop');
    expect(await codeOf(asking)).toBe('ASK_ABORTED');
    await expect(question.aborted).resolves.toBe('stop');
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);

    vi.useFakeTimers();
    const late = provider.hold<AskUserQuestionsRequest>();
    const timed = interaction.askAll({ ...PLAN, timeoutMs: 1_000 });
    const waiting = await late;
    vi.advanceTimersByTime(1_000);
    expect(await codeOf(timed)).toBe('ASK_TIMEOUT');
    // The UI's signal aborts with the ASK_TIMEOUT error, so that it can say why it cleared.
    expect(isUserInteractionError(await waiting.aborted, 'ASK_TIMEOUT')).toBe(true);
  });

  it('refuses an already-aborted signal before anything else, even an invalid request', async () => {
    const { interaction, provider } = withScripted();
    expect(await codeOf(interaction.askAll({ questions: [], signal: AbortSignal.abort() }))).toBe(
      'ASK_ABORTED',
    );
    expect(provider.batches).toHaveLength(0);
  });

  it('fails with NO_PROVIDER without a UI', async () => {
    expect(await codeOf(createUserInteraction().askAll(PLAN))).toBe('NO_PROVIDER');
  });

  it('refuses what the UI says it cannot show, before asking anything', async () => {
    const choicesOnly = createUserInteraction();
    const provider = createScriptedProvider({
      capabilities: { freeForm: false, customAnswer: false, multiSelect: false },
    });
    choicesOnly.registerProvider(provider);
    const free = await choicesOnly.askAll({ questions: [LANGUAGE, NAME] }).catch((error) => error);
    expect(free).toMatchObject({ code: 'UNSUPPORTED' });
    expect(free.message).toContain('`name` has no options');
    const multi = await choicesOnly.askAll({ questions: [FEATURES] }).catch((error) => error);
    expect(multi).toMatchObject({ code: 'UNSUPPORTED' });
    expect(multi.message).toContain('`features` takes several choices');
    expect(provider.batches).toHaveLength(0);
  });
});

describe('askAll through a UI that shows one question at a time', () => {
  it('asks each question through ask, in order, and gathers the answers', async () => {
    const { provider, seen } = oneAtATime([
      async (request) => ({ answer: 'Go', option: request.options?.[1] as never }),
      async () => ({ answer: 'my-app' }),
    ]);
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    const agent = { id: 'agent-1' };
    const result = await interaction.askAll({ questions: [LANGUAGE, NAME], agent });
    expect(seen.map((request) => request.question)).toEqual([LANGUAGE.question, NAME.question]);
    expect(seen[0]).toMatchObject({ header: 'Language', allowCustom: false, agent });
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(result).toEqual({
      answers: [
        { id: 'language', answers: ['Go'], options: [LANGUAGE.options[1]] },
        { id: 'name', answers: ['my-app'], options: [], custom: 'my-app' },
      ],
    });
  });

  it('fails a set with a multi-select with UNSUPPORTED before asking anything', async () => {
    const { provider, seen } = oneAtATime([]);
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    expect(await codeOf(interaction.askAll(PLAN))).toBe('UNSUPPORTED');
    expect(seen).toHaveLength(0);
  });

  it.each([
    ['declines', 'ASK_DECLINED'],
    ['cancels', 'ASK_CANCELLED'],
  ] as const)(
    'fails as a whole when the person %s one question, and asks no more',
    async (_name, code) => {
      const { provider, seen } = oneAtATime([
        async (request) => ({ answer: 'Go', option: request.options?.[1] as never }),
        async () => {
          const { UserInteractionError } = await import('../src/index.js');
          throw new UserInteractionError('no', code);
        },
        async () => ({ answer: 'never' }),
      ]);
      const interaction = createUserInteraction();
      interaction.registerProvider(provider);
      const third = { id: 'third', question: 'And this?' };
      expect(await codeOf(interaction.askAll({ questions: [LANGUAGE, NAME, third] }))).toBe(code);
      expect(seen).toHaveLength(2);
    },
  );

  it('checks each answer as ask() does', async () => {
    const { provider } = oneAtATime([async () => ({ answer: 'Rust' })]);
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    // A typed answer to a question that takes only its options.
    expect(await codeOf(interaction.askAll({ questions: [LANGUAGE] }))).toBe('INVALID_ANSWER');
  });

  it('stops at the abort or the time limit: the question on screen is withdrawn, no other is asked', async () => {
    let shown: AskUserQuestionRequest | undefined;
    const { provider, seen } = oneAtATime([
      (request) => {
        shown = request;
        return new Promise(() => {});
      },
    ]);
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    const turn = new AbortController();
    const asking = interaction.askAll({ questions: [LANGUAGE, NAME], signal: turn.signal });
    await vi.waitFor(() => expect(shown).toBeDefined());
    turn.abort();
    expect(await codeOf(asking)).toBe('ASK_ABORTED');
    expect(shown?.signal?.aborted).toBe(true);
    expect(seen).toHaveLength(1);

    vi.useFakeTimers();
    shown = undefined as AskUserQuestionRequest | undefined;
    const { provider: slow, seen: asked } = oneAtATime([
      (request) => {
        shown = request;
        return new Promise(() => {});
      },
    ]);
    const timed = createUserInteraction({ defaultTimeoutMs: 500 });
    timed.registerProvider(slow);
    const waiting = timed.askAll({ questions: [LANGUAGE, NAME] });
    await vi.waitFor(() => expect(shown).toBeDefined());
    vi.advanceTimersByTime(500);
    expect(await codeOf(waiting)).toBe('ASK_TIMEOUT');
    expect((shown as AskUserQuestionRequest | undefined)?.signal?.aborted).toBe(true);
    expect(asked).toHaveLength(1);
  });
});

describe('askAll checks the request as ask() does, naming the field', () => {
  async function fieldOf(request: unknown): Promise<string | undefined> {
    const { interaction, provider } = withScripted();
    const error = await interaction.askAll(request as AskUserQuestionsRequest).catch((e) => e);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(error.message).toContain(`\`${error.field}\``);
    expect(provider.batches).toHaveLength(0);
    return error.field;
  }

  it.each([
    ['no questions', {}, 'questions'],
    ['questions that are not a list', { questions: 'a, b' }, 'questions'],
    ['an empty list', { questions: [] }, 'questions'],
    [
      'eleven questions',
      { questions: Array.from({ length: 11 }, (_, i) => ({ ...NAME, id: `q${i}` })) },
      'questions',
    ],
    ['a question that is not an object', { questions: [NAME, 'Why?'] }, 'questions[1]'],
    ['a question without an id', { questions: [{ question: 'Why?' }] }, 'questions[0].id'],
    ['an id with a space', { questions: [{ ...NAME, id: 'my name' }] }, 'questions[0].id'],
    ['an id with a dot', { questions: [{ ...NAME, id: 'a.b' }] }, 'questions[0].id'],
    ['a 65-character id', { questions: [{ ...NAME, id: 'x'.repeat(65) }] }, 'questions[0].id'],
    [
      'a repeated id',
      { questions: [NAME, LANGUAGE, { ...FEATURES, id: 'name' }] },
      'questions[2].id',
    ],
    [
      'a blank question',
      { questions: [LANGUAGE, { id: 'b', question: '\u200b' }] },
      'questions[1].question',
    ],
    [
      'a blank label',
      { questions: [LANGUAGE, NAME, { ...FEATURES, options: [{ label: ' ' }] }] },
      'questions[2].options[0].label',
    ],
    [
      'labels a person cannot tell apart',
      { questions: [{ ...LANGUAGE, options: [{ label: 'Go' }, { label: 'GO ' }] }] },
      'questions[0].options[1].label',
    ],
    [
      'a snake_case field',
      { questions: [{ ...NAME, allow_custom: true }] },
      'questions[0].allow_custom',
    ],
    [
      'a multi-select that is not a boolean',
      { questions: [{ ...FEATURES, multiSelect: 'yes' }] },
      'questions[0].multiSelect',
    ],
    [
      'a multi-select without options',
      { questions: [{ ...NAME, multiSelect: true }] },
      'questions[0].options',
    ],
    ['a single question next to the list', { ...PLAN, question: 'Why?' }, 'question'],
    ['a blank header', { ...PLAN, header: '' }, 'header'],
    ['a time limit of zero', { ...PLAN, timeoutMs: 0 }, 'timeoutMs'],
  ])('refuses %s', async (_name, request, field) => {
    expect(await fieldOf(request)).toBe(field);
  });

  it('reads every field once: a getter that throws is INVALID_REQUEST naming it, never a throw', async () => {
    const item = {
      id: 'x',
      get question(): string {
        throw new Error('boom');
      },
    };
    expect(await fieldOf({ questions: [item] })).toBe('questions[0].question');
    const list = new Proxy([NAME], {
      get(target, key, receiver) {
        if (key === '0') throw new Error('boom');
        return Reflect.get(target, key, receiver);
      },
    });
    expect(await fieldOf({ questions: list })).toBe('questions[0]');
    let reads = 0;
    const counted = {
      id: 'counted',
      get question() {
        reads++;
        return reads === 1 ? 'First?' : '';
      },
    };
    const { interaction, provider } = withScripted({
      answers: [{ answers: { counted: { custom: 'ok' } } }],
    });
    await interaction.askAll({ questions: [counted] });
    expect(reads).toBe(1);
    expect(provider.batches[0]?.questions[0]?.question).toBe('First?');
  });
});

describe('askAll checks the answer against every question', () => {
  async function problemOf(raw: unknown, request: AskUserQuestionsRequest = PLAN) {
    const { interaction } = withScripted({ answers: [{ raw }] });
    return await interaction.askAll(request).catch((error) => error);
  }
  const language = { id: 'language', answers: ['TypeScript'], options: [LANGUAGE.options[0]] };
  const name = { id: 'name', answers: ['my-app'], options: [], custom: 'my-app' };
  const features = { id: 'features', answers: ['auth'], options: [FEATURES.options[0]] };

  it('accepts options a UI rebuilt from the wire, and returns the question own ones', async () => {
    const rebuilt = {
      id: 'features',
      answers: ['auth'],
      options: [{ label: 'AUTHENTICATION', value: 'auth' }],
    };
    const answer = await problemOf({ answers: [language, name, rebuilt] });
    expect(answer.answers?.[2]).toEqual(features);
  });

  it.each([
    ['not an object', 'yes', 'it is not an object'],
    ['answers that are not a list', { answers: 'all' }, '`answers` is not an array'],
    ['a missing question', { answers: [language, name] }, '`features` has no answer'],
    [
      'an unknown question',
      { answers: [language, name, { ...features, id: 'other' }] },
      'names no question',
    ],
    [
      'a question answered twice',
      { answers: [language, name, language] },
      '`language` is answered twice',
    ],
    [
      'more answers than questions',
      { answers: [language, name, features, features] },
      '4 answers for 3 questions',
    ],
    [
      'an unknown value',
      {
        answers: [
          language,
          name,
          { ...features, options: [{ label: 'Authentication', value: 'oauth' }] },
        ],
      },
      'not one of its options',
    ],
    [
      'two options for a single choice',
      {
        answers: [
          { ...language, answers: ['TypeScript', 'Go'], options: LANGUAGE.options },
          name,
          features,
        ],
      },
      '`language` takes one answer, and has 2',
    ],
    [
      'an option and a typed answer for a single choice',
      {
        answers: [language, { ...name }, { ...features }].map((entry, i) =>
          i === 0 ? { ...entry, answers: ['TypeScript', 'Rust'], custom: 'Rust' } : entry,
        ),
      },
      'only accepts its options',
    ],
    [
      'a multi-select with nothing chosen',
      { answers: [language, name, { ...features, answers: [], options: [] }] },
      '`features` has no answer',
    ],
    [
      'the same option twice',
      {
        answers: [
          language,
          name,
          {
            ...features,
            answers: ['auth', 'auth'],
            options: [FEATURES.options[0], FEATURES.options[0]],
          },
        ],
      },
      'the same option twice',
    ],
    [
      'a blank typed answer',
      { answers: [language, { ...name, answers: [' '], custom: ' ' }, features] },
      'typed answer of `name` is blank',
    ],
    [
      'answers that do not match the options',
      { answers: [language, name, { ...features, answers: ['tests'] }] },
      '`answers` of `features`',
    ],
    [
      'options that are not a list',
      { answers: [language, name, { ...features, options: 'auth' }] },
      '`options` of `features` is not an array',
    ],
  ])('refuses %s with INVALID_ANSWER', async (_name, raw, message) => {
    const error = await problemOf(raw);
    expect(error).toMatchObject({ code: 'INVALID_ANSWER' });
    expect(error.message).toContain(message);
  });

  it('refuses a single choice with both an option and typed text, where typed text is allowed', async () => {
    const open = { ...LANGUAGE, allowCustom: true };
    const error = await problemOf(
      { answers: [{ ...language, answers: ['TypeScript', 'Rust'], custom: 'Rust' }] },
      { questions: [open] },
    );
    expect(error).toMatchObject({ code: 'INVALID_ANSWER' });
    expect(error.message).toContain('`language` takes one answer, and has 2');
  });

  it('an answer whose getters throw is ASK_FAILED, never a throw', async () => {
    const hostile = {
      get answers(): never {
        throw new Error('secret detail');
      },
    };
    const error = await problemOf(hostile);
    expect(error).toMatchObject({ code: 'ASK_FAILED' });
    expect(error.message).not.toContain('secret detail');
    const entry = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    expect(await problemOf({ answers: [entry] })).toMatchObject({ code: 'ASK_FAILED' });
  });
});

describe('the scripted provider', () => {
  it('holds a set of questions open until the test answers it', async () => {
    const provider = createScriptedProvider();
    const held = provider.hold<AskUserQuestionsRequest>();
    const asking = provider.askAll({ questions: [NAME] });
    const question: HeldQuestion<AskUserQuestionsRequest> = await held;
    expect(question.request.questions[0]?.id).toBe('name');
    expect(provider.pending).toBe(1);
    question.answer({ answers: { name: { custom: 'my-app' } } });
    await expect(asking).resolves.toEqual({
      answers: [{ id: 'name', answers: ['my-app'], options: [], custom: 'my-app' }],
    });
    expect(provider.pending).toBe(0);
  });

  it('fails loudly for a reply of the wrong kind', async () => {
    const provider = createScriptedProvider({ answers: [{ custom: 'x' }, { answers: {} }] });
    await expect(provider.askAll({ questions: [NAME] })).rejects.toThrow(
      /needs a reply with `answers`/,
    );
    await expect(provider.ask({ question: 'Q?' })).rejects.toThrow(/for askAll, not ask/);
  });
});

describe('leaks', () => {
  it('many asks of several questions leave no listener behind', async () => {
    const provider = createScriptedProvider();
    const service = createUserInteraction();
    service.registerProvider(provider);
    const turn = new AbortController();
    for (let i = 0; i < 500; i++) {
      provider.enqueue(
        i % 3 === 0
          ? { error: 'ASK_DECLINED' }
          : {
              answers: {
                language: { label: 'Go' },
                name: { custom: 'x' },
                features: { value: 'docs' },
              },
            },
      );
      await service
        .askAll({ ...PLAN, signal: turn.signal, ...(i % 2 === 0 && { timeoutMs: 60_000 }) })
        .catch(() => {});
    }
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    expect(provider.pending).toBe(0);
  });
});
