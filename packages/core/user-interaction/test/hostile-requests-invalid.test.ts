import { describe, expect, it, vi } from 'vitest';
import {
  type AskUserQuestionAnswer,
  type UserInteractionError,
  validateRequest,
} from '../src/index.js';
import { answerFirst, boom, outcome, withProvider } from './support/hostile-calls.js';

describe('a hostile request is INVALID_REQUEST, never a throw or another error', () => {
  const trap = (name: keyof ProxyHandler<object>) =>
    new Proxy({ question: 'Q?' }, { [name]: boom });
  const revoked = Proxy.revocable({ question: 'Q?' }, {});
  revoked.revoke();

  it.each<[string, () => unknown, string]>([
    [
      'a throwing signal getter',
      () => ({
        question: 'Q?',
        get signal() {
          return boom();
        },
      }),
      'signal',
    ],
    [
      'a throwing question getter',
      () => ({
        get question() {
          return boom();
        },
      }),
      'question',
    ],
    [
      'a throwing agent.id getter',
      () => ({
        question: 'Q?',
        agent: {
          get id() {
            return boom();
          },
        },
      }),
      'agent.id',
    ],
    [
      'a throwing option label getter',
      () => ({
        question: 'Q?',
        options: [
          {
            get label() {
              return boom();
            },
          },
        ],
      }),
      'options[0].label',
    ],
    ['a Proxy whose ownKeys trap throws', () => trap('ownKeys'), 'request'],
    ['a Proxy whose get trap throws', () => trap('get'), 'signal'],
    ['a Proxy whose getPrototypeOf trap throws', () => trap('getPrototypeOf'), 'request'],
    [
      'a Proxy whose getOwnPropertyDescriptor trap throws',
      () => trap('getOwnPropertyDescriptor'),
      'request',
    ],
    ['a revoked Proxy', () => revoked.proxy, 'signal'],
    [
      'options that are a Proxy whose get trap throws',
      () => ({ question: 'Q?', options: new Proxy([{ label: 'A' }], { get: boom }) }),
      'options',
    ],
    [
      'an option that is a Proxy whose has trap throws',
      () => ({
        question: 'Q?',
        options: [new Proxy({ label: 'A' }, { has: boom, ownKeys: boom })],
      }),
      'options[0]',
    ],
  ])('%s', async (_name, request, field) => {
    const interaction = withProvider(answerFirst);
    let error: unknown;
    const result = await outcome(() =>
      interaction.ask(request() as never).catch((e: unknown) => {
        error = e;
        throw e;
      }),
    );
    expect(result).toBe('INVALID_REQUEST');
    expect((error as UserInteractionError).field).toBe(field);
    expect(() => validateRequest(request())).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', field }),
    );
  });

  it('a signal-like object whose reason getter throws', async () => {
    const interaction = withProvider(answerFirst);
    const signal = {
      aborted: true,
      addEventListener() {},
      removeEventListener() {},
      get reason() {
        return boom();
      },
    };
    expect(await outcome(() => interaction.ask({ question: 'Q?', signal } as never))).toBe(
      'INVALID_REQUEST',
    );
  });

  it('a signal-like object that cannot take a listener', async () => {
    const interaction = withProvider(answerFirst);
    const signal = { aborted: false, addEventListener: boom, removeEventListener() {} };
    expect(await outcome(() => interaction.ask({ question: 'Q?', signal } as never))).toBe(
      'INVALID_REQUEST',
    );
  });

  it('a signal-like object that calls its listener at once leaves no timer behind', async () => {
    vi.useFakeTimers();
    try {
      const interaction = withProvider(answerFirst);
      const signal = {
        aborted: false,
        // An EventTarget takes a function or an object with `handleEvent`: call either at once.
        addEventListener: (_type: string, listener: (() => void) | { handleEvent(): void }) =>
          typeof listener === 'function' ? listener() : listener.handleEvent(),
        removeEventListener() {},
      };
      expect(
        await outcome(() =>
          interaction.ask({ question: 'Q?', signal, timeoutMs: 60_000 } as never),
        ),
      ).toBe('ASK_ABORTED');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a getter that aborts the signal while the request is read still withdraws the question', async () => {
    const controller = new AbortController();
    const interaction = withProvider({ ask: () => new Promise<AskUserQuestionAnswer>(() => {}) });
    const request = {
      signal: controller.signal,
      get question() {
        controller.abort();
        return 'Q?';
      },
    };
    expect(await outcome(() => interaction.ask(request))).toBe('ASK_ABORTED');
  });
});
