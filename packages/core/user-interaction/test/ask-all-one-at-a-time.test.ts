import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AskUserQuestionRequest, createUserInteraction } from '../src/index.js';
import { LANGUAGE, NAME, oneAtATime, PLAN } from './support/ask-all-plan.js';
import { codeOf } from './support/code-of.js';

afterEach(() => {
  vi.useRealTimers();
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
