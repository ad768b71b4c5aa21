import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AskUserQuestionsRequest,
  createUserInteraction,
  isUserInteractionError,
} from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { FEATURES, LANGUAGE, NAME, PLAN, withScripted } from './support/ask-all-plan.js';
import { codeOf } from './support/code-of.js';

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
