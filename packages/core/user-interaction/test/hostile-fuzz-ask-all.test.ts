import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AskUserQuestionsRequest,
  answerForItem,
  createUserInteraction,
  UserInteractionError,
  type UserInteractionProvider,
} from '../src/index.js';

const boom = (): never => {
  throw new Error('boom');
};

const oddText = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    '',
    ' ',
    'a',
    'A',
    'a.b',
    'x:custom',
    '__proto__',
    '\u200b',
    '\ud800',
    'y'.repeat(65),
  ),
);

/** A value as it is, behind a throwing Proxy, or revoked. */
function hostile<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<() => unknown> {
  return fc
    .tuple(arbitrary, fc.constantFrom('plain', 'trap', 'revoked'))
    .map(([value, how]) => () => {
      if (typeof value !== 'object' || value === null || how === 'plain') return value;
      if (how === 'trap') return new Proxy(value, { get: boom });
      const { proxy, revoke } = Proxy.revocable(value, {});
      revoke();
      return proxy;
    });
}

const option = fc.record(
  { label: oddText, value: fc.oneof(oddText, fc.anything()), recommended: fc.boolean() },
  { requiredKeys: ['label'] },
);

const item = hostile(
  fc.record(
    {
      id: fc.oneof(oddText, fc.anything()),
      question: fc.oneof(oddText, fc.anything()),
      header: oddText,
      options: fc.oneof(fc.array(option, { maxLength: 4 }), fc.anything()),
      allowCustom: fc.oneof(fc.boolean(), fc.anything()),
      multiSelect: fc.oneof(fc.boolean(), fc.anything()),
      allow_custom: fc.boolean(),
    },
    { requiredKeys: ['id', 'question'] },
  ),
);

const request = hostile(
  fc.record(
    {
      questions: fc.oneof(fc.array(item, { maxLength: 12 }), fc.anything()),
      header: oddText,
      timeoutMs: fc.oneof(fc.integer({ min: -1, max: 20 }), fc.anything()),
      question: oddText,
    },
    { requiredKeys: ['questions'] },
  ),
);

/** Every item a generated request holds, made hostile when the case runs. */
function materialise(make: () => unknown): unknown {
  const value = make();
  try {
    const { questions } = value as { questions: unknown };
    if (!Array.isArray(questions)) return value;
    return {
      ...(value as object),
      questions: questions.map((entry) => (typeof entry === 'function' ? entry() : entry)),
    };
  } catch {
    // A hostile request itself: it goes to askAll as it is.
    return value;
  }
}

/** UIs that misbehave in every way, but always settle. */
const provider = fc.constantFrom<UserInteractionProvider>(
  {
    ask: async () => ({ answer: 'typed' }),
    async askAll(asked) {
      return {
        answers: asked.questions.map((question) =>
          question.options?.[0] === undefined
            ? answerForItem(question, [], 'typed')
            : answerForItem(question, [question.options[0]]),
        ),
      };
    },
  },
  { ask: async () => ({ answer: 'typed' }) },
  { ask: async () => ({ answer: 'typed' }), askAll: async () => ({ answers: 'all' }) as never },
  {
    ask: async () => ({ answer: 'typed' }),
    askAll: async () => new Proxy({}, { get: boom }) as never,
  },
  { ask: async () => ({ answer: 'typed' }), askAll: boom },
  {
    ask: async () => ({ answer: 'typed' }),
    get askAll(): never {
      return boom();
    },
  },
  { ask: boom, askAll: () => Promise.reject(new Proxy({}, { getPrototypeOf: boom, get: boom })) },
);

describe('fuzz: hostile sets of questions and UIs', () => {
  it('askAll() never throws, always settles, and rejects only with UserInteractionError', async () => {
    await fc.assert(
      fc.asyncProperty(request, provider, async (make, ui) => {
        const interaction = createUserInteraction();
        interaction.registerProvider(ui);
        let pending: Promise<unknown> | undefined;
        expect(() => {
          pending = interaction.askAll(materialise(make) as AskUserQuestionsRequest);
        }).not.toThrow();
        try {
          const { answers } = (await pending) as { answers: unknown };
          expect(Array.isArray(answers)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(UserInteractionError);
        }
      }),
      { numRuns: 800, interruptAfterTimeLimit: 2_500 },
    );
  });
});
