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
import { choice } from './support/database-choice.js';

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
});
