import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  createUserInteraction,
  isUserInteractionError,
  type UserInteractionProvider,
} from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { codeOf } from './support/code-of.js';

const choice = {
  question: 'Which database?',
  options: [{ label: 'PostgreSQL', recommended: true }, { label: 'SQLite' }],
};

/** A provider that never settles and never looks at its signal. */
function deafProvider(): UserInteractionProvider & { readonly seen: AskUserQuestionRequest[] } {
  const seen: AskUserQuestionRequest[] = [];
  return {
    seen,
    ask(request) {
      seen.push(request);
      return new Promise<AskUserQuestionAnswer>(() => {});
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('registerProvider', () => {
  it('makes the provider active, and disposing removes it', () => {
    const interaction = createUserInteraction();
    expect(interaction.hasProvider).toBe(false);
    expect(interaction.capabilities).toBeUndefined();
    const dispose = interaction.registerProvider(createScriptedProvider());
    expect(interaction.hasProvider).toBe(true);
    expect(interaction.capabilities).toEqual({ freeForm: true, customAnswer: true });
    dispose();
    expect(interaction.hasProvider).toBe(false);
  });

  it('refuses a second provider without replacing the first', async () => {
    const interaction = createUserInteraction();
    const first = createScriptedProvider({ answers: [{ label: 'SQLite' }] });
    interaction.registerProvider(first);
    const second = createScriptedProvider({ answers: [{ label: 'PostgreSQL' }] });
    expect(() => interaction.registerProvider(second)).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_PROVIDER' }),
    );
    await expect(interaction.ask(choice)).resolves.toMatchObject({ answer: 'SQLite' });
    expect(second.requests).toHaveLength(0);
  });

  it('dispose is idempotent, Disposable, and a stale one never removes a newer provider', async () => {
    const interaction = createUserInteraction();
    const old = interaction.registerProvider(createScriptedProvider());
    old();
    old();
    const newer = createScriptedProvider({ answers: [{ label: 'SQLite' }] });
    {
      using _registration = interaction.registerProvider(newer);
      old[Symbol.dispose]();
      old();
      expect(interaction.hasProvider).toBe(true);
      await expect(interaction.ask(choice)).resolves.toMatchObject({ answer: 'SQLite' });
    }
    expect(interaction.hasProvider).toBe(false);
    interaction.registerProvider(createScriptedProvider());
    expect(interaction.hasProvider).toBe(true);
  });

  it('disposes the registration when its signal aborts, and removes its listener', () => {
    const interaction = createUserInteraction();
    const scope = new AbortController();
    const dispose = interaction.registerProvider(createScriptedProvider(), {
      signal: scope.signal,
    });
    expect(getEventListeners(scope.signal, 'abort')).toHaveLength(1);
    scope.abort();
    expect(interaction.hasProvider).toBe(false);
    interaction.registerProvider(createScriptedProvider());
    dispose();
    expect(interaction.hasProvider).toBe(true);

    const other = new AbortController();
    const manual = createUserInteraction().registerProvider(createScriptedProvider(), {
      signal: other.signal,
    });
    manual();
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('does not register with a signal that already aborted', () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider(), { signal: AbortSignal.abort() });
    expect(interaction.hasProvider).toBe(false);
  });

  it('refuses something that is not a provider', () => {
    const interaction = createUserInteraction();
    expect(() => interaction.registerProvider({} as UserInteractionProvider)).toThrow(TypeError);
  });

  it('reports the capabilities of the active provider', () => {
    const interaction = createUserInteraction();
    const capabilities = { freeForm: false, customAnswer: false };
    interaction.registerProvider(createScriptedProvider({ capabilities }));
    expect(interaction.capabilities).toEqual(capabilities);
  });
});

describe('ask', () => {
  it('answers through the provider, which receives a copy of the request', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({ answers: [{ label: 'PostgreSQL' }] });
    interaction.registerProvider(provider);
    const request = { ...choice, header: 'Database', agent: { id: 'agent-7' } };
    const answer = await interaction.ask(request);
    expect(answer).toEqual({ answer: 'PostgreSQL', option: choice.options[0] });
    expect(provider.requests[0]).toEqual(request);
    expect(provider.requests[0]).not.toBe(request);
    // The answer's option is the one the UI was shown: the request's frozen snapshot's.
    expect(answer.option).toBe(provider.requests[0]?.options?.[0]);
    expect(Object.isFrozen(answer.option)).toBe(true);
  });

  it('checks in order: aborted signal, then request, then provider', async () => {
    const interaction = createUserInteraction();
    const aborted = AbortSignal.abort(new Error('stop'));
    // Invalid, aborted, and no provider: the aborted signal wins.
    await expect(codeOf(interaction.ask({ question: '', signal: aborted }))).resolves.toBe(
      'ASK_ABORTED',
    );
    await expect(codeOf(interaction.ask({ question: '' }))).resolves.toBe('INVALID_REQUEST');
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('NO_PROVIDER');
    const provider = createScriptedProvider();
    interaction.registerProvider(provider);
    await expect(codeOf(interaction.ask({ ...choice, signal: aborted }))).resolves.toBe(
      'ASK_ABORTED',
    );
    expect(provider.requests).toHaveLength(0);
  });

  it('ASK_ABORTED keeps the signal’s reason as its cause', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(deafProvider());
    const reason = new Error('turn cancelled');
    const error = await interaction
      .ask({ ...choice, signal: AbortSignal.abort(reason) })
      .catch((e) => e);
    expect(error.code).toBe('ASK_ABORTED');
    expect(error.cause).toBe(reason);
  });

  it('rejects at once when the signal aborts mid-wait, even if the provider ignores it', async () => {
    const interaction = createUserInteraction();
    const provider = deafProvider();
    interaction.registerProvider(provider);
    const controller = new AbortController();
    const pending = interaction.ask({ ...choice, signal: controller.signal });
    expect(provider.seen).toHaveLength(1);
    expect(provider.seen[0]?.signal).toBe(controller.signal);
    controller.abort();
    await expect(codeOf(pending)).resolves.toBe('ASK_ABORTED');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('tells a well-behaved provider about the abort, so it can clear its screen', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider();
    interaction.registerProvider(provider);
    const held = provider.hold();
    const controller = new AbortController();
    const pending = interaction.ask({ ...choice, signal: controller.signal });
    const question = await held;
    controller.abort('bye');
    await expect(codeOf(pending)).resolves.toBe('ASK_ABORTED');
    await expect(question.aborted).resolves.toBe('bye');
    expect(provider.pending).toBe(0);
  });

  it('an abort after the answer changes nothing and leaves no listener', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ label: 'SQLite' }] }));
    const controller = new AbortController();
    const answer = await interaction.ask({ ...choice, signal: controller.signal });
    controller.abort();
    expect(answer.answer).toBe('SQLite');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('ignores a late answer after an abort', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({ ignoreSignal: true });
    interaction.registerProvider(provider);
    const held = provider.hold();
    const controller = new AbortController();
    const pending = interaction.ask({ ...choice, signal: controller.signal });
    const question = await held;
    controller.abort();
    await expect(codeOf(pending)).resolves.toBe('ASK_ABORTED');
    question.answer({ label: 'SQLite' });
    await expect(codeOf(pending)).resolves.toBe('ASK_ABORTED');
  });

  it('times out with ASK_TIMEOUT, aborting the provider’s signal and clearing the timer', async () => {
    vi.useFakeTimers();
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({ ignoreSignal: true });
    interaction.registerProvider(provider);
    const held = provider.hold();
    const pending = interaction.ask({ ...choice, timeoutMs: 5_000 });
    const question = await held;
    expect(question.request.timeoutMs).toBe(5_000);
    const outcome = codeOf(pending);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toBe('ASK_TIMEOUT');
    const reason = await question.aborted;
    expect(isUserInteractionError(reason, 'ASK_TIMEOUT')).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears the timer and the signal listener when the answer comes first', async () => {
    vi.useFakeTimers();
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ label: 'SQLite' }] }));
    const controller = new AbortController();
    await interaction.ask({ ...choice, signal: controller.signal, timeoutMs: 60_000 });
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('applies the context’s default time limit, and a request’s own limit wins', async () => {
    vi.useFakeTimers();
    const interaction = createUserInteraction({ defaultTimeoutMs: 1_000 });
    const provider = deafProvider();
    interaction.registerProvider(provider);
    const first = codeOf(interaction.ask(choice));
    expect(provider.seen[0]?.timeoutMs).toBe(1_000);
    const second = codeOf(interaction.ask({ ...choice, timeoutMs: 3_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(first).resolves.toBe('ASK_TIMEOUT');
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(second).resolves.toBe('ASK_TIMEOUT');
  });

  it('refuses an invalid default time limit', () => {
    expect(() => createUserInteraction({ defaultTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST' }),
    );
  });

  it('passes the provider’s own UserInteractionError through', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(
      createScriptedProvider({
        answers: [{ error: 'ASK_DECLINED' }, { error: 'ASK_CANCELLED' }, { error: 'INPUT_CLOSED' }],
      }),
    );
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('ASK_DECLINED');
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('ASK_CANCELLED');
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('INPUT_CLOSED');
  });

  it('turns anything else a provider throws or rejects with into ASK_FAILED, keeping the cause', async () => {
    const interaction = createUserInteraction();
    const boom = new Error('EPIPE: the screen went away, token sk-123');
    let mode: 'throw' | 'reject' = 'throw';
    interaction.registerProvider({
      ask() {
        if (mode === 'throw') throw boom;
        return Promise.reject(boom);
      },
    });
    for (const next of ['throw', 'reject'] as const) {
      mode = next;
      const error = await interaction.ask(choice).catch((e) => e);
      expect(error.code).toBe('ASK_FAILED');
      expect(error.cause).toBe(boom);
      expect(error.message).not.toContain('sk-123');
    }
    const controller = new AbortController();
    const error = await interaction.ask({ ...choice, signal: controller.signal }).catch((e) => e);
    expect(error.code).toBe('ASK_FAILED');
  });

  it('rejects a UI answer that does not fit with INVALID_ANSWER', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(
      createScriptedProvider({
        answers: [
          { raw: { answer: '' } },
          { custom: 'MySQL' },
          { raw: { answer: 'MySQL', option: { label: 'MySQL' } } },
          { raw: undefined },
        ],
      }),
    );
    for (let i = 0; i < 4; i++) {
      await expect(codeOf(interaction.ask({ ...choice, allowCustom: false }))).resolves.toBe(
        'INVALID_ANSWER',
      );
    }
  });

  it('validates answers on the withdrawable path too', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ custom: 'MySQL' }] }));
    const controller = new AbortController();
    await expect(
      codeOf(interaction.ask({ ...choice, allowCustom: false, signal: controller.signal })),
    ).resolves.toBe('INVALID_ANSWER');
  });

  it('fails a free-form question with UNSUPPORTED when the UI cannot show one', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({
      capabilities: { freeForm: false, customAnswer: false },
      answers: [{ label: 'SQLite' }],
    });
    interaction.registerProvider(provider);
    await expect(codeOf(interaction.ask({ question: 'Name?' }))).resolves.toBe('UNSUPPORTED');
    expect(provider.requests).toHaveLength(0);
    await expect(interaction.ask(choice)).resolves.toMatchObject({ answer: 'SQLite' });
  });

  it('fails every question with UNSUPPORTED, saying to ask in the reply, when the UI shows none', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({
      capabilities: { freeForm: false, customAnswer: false, questions: false },
      answers: [{ label: 'SQLite' }],
    });
    interaction.registerProvider(provider);
    for (const asked of [
      interaction.ask(choice),
      interaction.ask({ question: 'Name?' }),
      interaction.askAll({ questions: [{ id: 'db', ...choice }] }),
    ]) {
      const error = await asked.catch((failure: unknown) => failure);
      expect(error).toMatchObject({ code: 'UNSUPPORTED' });
      expect((error as Error).message).toContain('ask the question in your reply text');
    }
    expect(provider.requests).toHaveLength(0);
  });

  it('keeps asking the same provider for questions already sent after its registration ends', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider();
    const dispose = interaction.registerProvider(provider);
    const held = provider.hold();
    const pending = interaction.ask(choice);
    const question = await held;
    dispose();
    question.answer({ label: 'SQLite' });
    await expect(pending).resolves.toMatchObject({ answer: 'SQLite' });
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('NO_PROVIDER');
  });
});
