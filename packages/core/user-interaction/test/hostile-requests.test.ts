import { describe, expect, it, vi } from 'vitest';
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  createUserInteraction,
  isUserInteractionError,
  UserInteractionError,
  type UserInteractionErrorCode,
  type UserInteractionProvider,
  validateRequest,
} from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';

const boom = (): never => {
  throw new Error('boom');
};

/**
 * Calls `ask()` and says how it failed: `'threw'` when it threw instead of returning a
 * promise, else the code of the `UserInteractionError` it rejected with, or `'not a
 * UserInteractionError'`.
 */
async function outcome(
  ask: () => Promise<unknown>,
): Promise<UserInteractionErrorCode | 'threw' | 'resolved' | 'not a UserInteractionError'> {
  let pending: Promise<unknown>;
  try {
    pending = ask();
  } catch {
    return 'threw';
  }
  try {
    await pending;
    return 'resolved';
  } catch (error) {
    return error instanceof UserInteractionError ? error.code : 'not a UserInteractionError';
  }
}

function withProvider(provider: UserInteractionProvider) {
  const interaction = createUserInteraction();
  interaction.registerProvider(provider);
  return interaction;
}

const answerFirst: UserInteractionProvider = {
  async ask(request) {
    const option = request.options?.[0];
    return option === undefined ? { answer: 'typed' } : { answer: option.label, option };
  },
};

describe('the UI is shown what was validated', () => {
  it('a caller changing its options after ask() changes neither the question shown nor the answer', async () => {
    const provider = createScriptedProvider();
    const interaction = withProvider(provider);
    const options = [{ label: 'Keep files' }, { label: 'Delete them' }];
    const held = provider.hold();
    const asking = interaction.ask({ question: 'What now?', options });
    const question = await held;
    (options[0] as { label: string }).label = '';
    options.push({ label: 'Keep files\u200d' });
    expect(question.request.options?.map((option) => option.label)).toEqual([
      'Keep files',
      'Delete them',
    ]);
    question.answer({ label: 'Keep files' });
    const answer = await asking;
    expect(answer).toEqual({ answer: 'Keep files', option: { label: 'Keep files' } });
  });

  it('reads each field once: a getter cannot swap in a huge or blank text after the check', async () => {
    const seen: AskUserQuestionRequest[] = [];
    const interaction = withProvider({
      async ask(request) {
        seen.push(request);
        return { answer: 'fine' };
      },
    });
    let questionReads = 0;
    let labelReads = 0;
    const request = {
      get question() {
        return questionReads++ === 0 ? 'Which name?' : 'x'.repeat(1_000_000);
      },
      options: [
        {
          get label() {
            return labelReads++ === 0 ? 'Fine' : ' ';
          },
        },
      ],
      allowCustom: true,
    };
    await interaction.ask(request);
    expect(seen[0]?.question).toBe('Which name?');
    expect(seen[0]?.options?.[0]?.label).toBe('Fine');
    expect(questionReads).toBe(1);
    expect(labelReads).toBe(1);
  });

  it('hands the UI a frozen request whose options are frozen too', async () => {
    const seen: AskUserQuestionRequest[] = [];
    const interaction = withProvider({
      async ask(request) {
        seen.push(request);
        return { answer: 'A', option: request.options?.[0] as never };
      },
    });
    await interaction.ask({ question: 'Q?', options: [{ label: 'A' }], agent: { id: 'me' } });
    const [request] = seen;
    expect(Object.isFrozen(request)).toBe(true);
    expect(Object.isFrozen(request?.options)).toBe(true);
    expect(Object.isFrozen(request?.options?.[0])).toBe(true);
    expect(Object.isFrozen(request?.agent)).toBe(true);
  });

  it('keeps a frozen agent as it is, and copies any other with its other fields', () => {
    const frozen = Object.freeze({ id: 'agent-1', toolCallId: 'call-1' });
    expect(validateRequest({ question: 'Q?', agent: frozen }).agent).toBe(frozen);
    const open = { id: 'agent-1', toolCallId: 'call-1' };
    const copied = validateRequest({ question: 'Q?', agent: open }).agent;
    expect(copied).toEqual(open);
    expect(copied).not.toBe(open);
    expect(Object.isFrozen(copied)).toBe(true);
    let reads = 0;
    const sly = Object.freeze({
      get id() {
        return reads++ === 0 ? 'agent-1' : '';
      },
    });
    const snapshot = validateRequest({ question: 'Q?', agent: sly }).agent;
    expect(snapshot?.id).toBe('agent-1');
    expect(snapshot?.id).toBe('agent-1');
    expect(reads).toBe(1);
  });

  it('validateRequest returns the snapshot it checked, not the object it was given', () => {
    let reads = 0;
    const request = {
      get question() {
        return reads++ === 0 ? 'Which?' : '';
      },
    };
    const valid = validateRequest(request);
    expect(valid.question).toBe('Which?');
    expect(valid.question).toBe('Which?');
    expect(reads).toBe(1);
  });

  it('still refuses inherited keys', () => {
    const polluted = Object.assign(Object.create({ colour: 'red' }), { question: 'Q?' });
    expect(() => validateRequest(polluted)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', field: 'colour' }),
    );
  });
});

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

/** A provider whose `ask` is a function when registered, and a throwing getter after. */
function askGetterThatThrowsLater(): UserInteractionProvider {
  let reads = 0;
  return {
    get ask() {
      return reads++ === 0 ? async () => ({ answer: 'x' }) : boom();
    },
  } as UserInteractionProvider;
}

describe('a failing UI is ASK_FAILED, never a throw or another error', () => {
  const choice = { question: 'Q?', options: [{ label: 'A' }] };
  const revokedAnswer = Proxy.revocable({ answer: 'A' }, {});
  revokedAnswer.revoke();

  it.each<[string, UserInteractionProvider, AskUserQuestionRequest]>([
    [
      'a capabilities getter that throws',
      {
        ask: async () => ({ answer: 'x' }),
        get capabilities() {
          return boom();
        },
      },
      { question: 'Name?' },
    ],
    ['an ask getter that throws once registered', askGetterThatThrowsLater(), choice],
    [
      'an answer whose answer getter throws',
      {
        ask: async () => ({
          get answer() {
            return boom();
          },
        }),
      } as never,
      { question: 'Name?' },
    ],
    [
      'an answer that is a Proxy whose get trap throws',
      { ask: async () => new Proxy({}, { get: boom }) } as never,
      choice,
    ],
    [
      'an answer that is a revoked Proxy',
      { ask: async () => revokedAnswer.proxy } as never,
      choice,
    ],
    [
      'an option whose getters throw',
      {
        ask: async () => ({
          answer: 'A',
          option: {
            get label() {
              return boom();
            },
          },
        }),
      } as never,
      choice,
    ],
    // biome-ignore lint/suspicious/noThenProperty: a UI that returns a broken thenable, on purpose.
    ['a thenable whose then throws', { ask: () => ({ then: boom }) } as never, choice],
    [
      'a rejection with a Proxy whose getPrototypeOf trap throws',
      { ask: () => Promise.reject(new Proxy({}, { getPrototypeOf: boom, get: boom })) },
      choice,
    ],
  ])('%s', async (_name, provider, request) => {
    const interaction = withProvider(provider);
    expect(await outcome(() => interaction.ask(request))).toBe('ASK_FAILED');
    const controller = new AbortController();
    expect(await outcome(() => interaction.ask({ ...request, signal: controller.signal }))).toBe(
      'ASK_FAILED',
    );
  });

  it('a foreign UserInteractionError is read once: a code getter cannot change its code later', async () => {
    let reads = 0;
    const foreign = {
      // The markers a second copy of the package gives its errors' prototype.
      [Symbol.for('dsh.error.HarnessError')]: true,
      [Symbol.for('dsh.error.UserInteractionError')]: true,
      name: 'UserInteractionError',
      message: 'Declined.',
      get code() {
        return reads++ === 0 ? 'ASK_DECLINED' : 'EVIL';
      },
    };
    const interaction = withProvider({ ask: () => Promise.reject(foreign) });
    const error = await interaction.ask(choice).catch((e: unknown) => e);
    expect(isUserInteractionError(error, 'ASK_DECLINED')).toBe(true);
  });
});
