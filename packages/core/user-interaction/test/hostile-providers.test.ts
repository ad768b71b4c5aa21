import { describe, expect, it } from 'vitest';
import {
  type AskUserQuestionRequest,
  isUserInteractionError,
  type UserInteractionProvider,
} from '../src/index.js';
import { boom, outcome, withProvider } from './support/hostile-calls.js';

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
