import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AskUserQuestionRequest,
  createUserInteraction,
  isBlankText,
  UserInteractionError,
  type UserInteractionProvider,
} from '../src/index.js';

const boom = (): never => {
  throw new Error('boom');
};

const HUGE = 'x'.repeat(1_000_001);
const oddText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    ' ',
    'Keep files',
    'Keep files\u200d',
    'KEEP FILES',
    'Cafe\u0301',
    'Caf\u00e9',
    '\u3164',
    '\u2800',
    '\ud800',
    '\u202eYes',
    '\u001b[2J',
    HUGE,
    '\u200b'.repeat(100_000),
  ),
);

const TRAPS = ['get', 'has', 'ownKeys', 'getPrototypeOf', 'getOwnPropertyDescriptor'] as const;

/** How a value is made hostile: as it is, behind a throwing Proxy trap, revoked, or with getters. */
const disguise: fc.Arbitrary<Disguise> = fc.oneof(
  fc.constant({ kind: 'plain' as const }),
  fc.constant({ kind: 'revoked' as const }),
  fc.record({ kind: fc.constant('trap' as const), trap: fc.constantFrom(...TRAPS) }),
  fc.record({ kind: fc.constant('getters' as const), throwAfter: fc.nat({ max: 2 }) }),
);

type Disguise =
  | { readonly kind: 'plain' | 'revoked' }
  | { readonly kind: 'trap'; readonly trap: (typeof TRAPS)[number] }
  | { readonly kind: 'getters'; readonly throwAfter: number };

function disguised(value: unknown, how: Disguise): unknown {
  if (typeof value !== 'object' || value === null) return value;
  switch (how.kind) {
    case 'plain':
      return value;
    case 'revoked': {
      const { proxy, revoke } = Proxy.revocable(value, {});
      revoke();
      return proxy;
    }
    case 'trap':
      return new Proxy(value, { [how.trap]: boom });
    case 'getters': {
      // Every field a getter that answers its value a few times, then throws or changes.
      const copy = (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
      for (const [key, field] of Object.entries(value)) {
        let reads = 0;
        Object.defineProperty(copy, key, {
          enumerable: true,
          get: () => (reads++ < how.throwAfter ? field : reads % 2 ? boom() : HUGE),
        });
      }
      return copy;
    }
  }
}

/** A value to disguise when the case runs (fast-check itself must not touch the disguise). */
class Disguised {
  constructor(
    readonly value: unknown,
    readonly how: Disguise,
  ) {}
}

const hostile = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.tuple(arbitrary, disguise).map(([value, how]) => new Disguised(value, how));

/** The value a generated case describes, with its disguises put on, innermost first. */
function materialise(value: unknown): unknown {
  if (value instanceof Disguised) return disguised(materialise(value.value), value.how);
  if (Array.isArray(value)) return value.map(materialise);
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, materialise(field)]),
    );
  }
  return value;
}

const signalLike = fc.oneof(
  fc.constant(undefined),
  fc.constant('abort-now'),
  fc.constant('abort-later'),
  fc.record({
    aborted: fc.oneof(fc.boolean(), fc.anything()),
    addEventListener: fc.constantFrom(() => {}, boom, 'no'),
    removeEventListener: fc.constantFrom(() => {}, boom),
  }),
);

const option = hostile(
  fc.record(
    {
      label: oddText,
      value: fc.oneof(oddText, fc.anything()),
      description: oddText,
      recommended: fc.oneof(fc.boolean(), fc.anything()),
      descripton: oddText,
    },
    { requiredKeys: ['label'] },
  ),
);

const request = fc
  .tuple(
    fc.record(
      {
        question: fc.oneof(oddText, fc.anything()),
        header: oddText,
        options: fc.oneof(
          hostile(fc.array(fc.oneof(option, fc.anything()), { maxLength: 8 })),
          fc.anything(),
        ),
        allowCustom: fc.oneof(fc.boolean(), fc.anything()),
        agent: hostile(fc.record({ id: fc.oneof(oddText, fc.anything()), toolCallId: oddText })),
        timeoutMs: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.double(), fc.anything()),
        extra: fc.anything(),
      },
      { requiredKeys: ['question'] },
    ),
    signalLike,
    disguise,
  )
  .map(([fields, signal, how]) => ({ fields, signal, how }));

/** The request a case describes; a signal to abort "later" aborts once the ask has started. */
function build({
  fields,
  signal,
  how,
}: {
  fields: Record<string, unknown>;
  signal: unknown;
  how: Disguise;
}) {
  const controller = new AbortController();
  let withSignal = materialise(fields) as Record<string, unknown>;
  if (signal === 'abort-now') controller.abort();
  if (signal === 'abort-now' || signal === 'abort-later') {
    withSignal = { ...withSignal, signal: controller.signal };
  } else if (signal !== undefined) {
    withSignal = { ...withSignal, signal };
  }
  return { request: disguised(withSignal, how), later: () => controller.abort() };
}

/** UIs that misbehave in every way, but always settle. */
const provider = fc.constantFrom<UserInteractionProvider>(
  {
    async ask(request) {
      const first = request.options?.[0];
      return first === undefined
        ? { answer: 'typed' }
        : { answer: first.value ?? first.label, option: first };
    },
  },
  { ask: async () => ({ answer: 'typed' }) },
  { ask: async () => ({ answer: HUGE }) },
  { ask: async () => ({ answer: '\u3164' }) },
  { ask: async () => new Proxy({}, { get: boom }) as never },
  { ask: async () => ({ answer: 'A', option: new Proxy({}, { get: boom }) as never }) },
  // biome-ignore lint/suspicious/noThenProperty: a UI that returns a broken thenable, on purpose.
  { ask: () => ({ then: boom }) as never },
  { ask: boom },
  { ask: () => Promise.reject(new Proxy({}, { getPrototypeOf: boom, get: boom })) },
  { ask: () => Promise.reject('a string') },
  {
    ask: async () => ({ answer: 'typed' }),
    get capabilities() {
      return boom();
    },
  },
  { ask: async () => ({ answer: 'typed' }), capabilities: new Proxy({}, { get: boom }) as never },
);

describe('fuzz: hostile requests and UIs', () => {
  it('ask() never throws, always settles, and rejects only with UserInteractionError', async () => {
    await fc.assert(
      fc.asyncProperty(request, provider, async (description, ui) => {
        const interaction = createUserInteraction();
        interaction.registerProvider(ui);
        const { request: hostileRequest, later } = build(description);
        let pending: Promise<unknown> | undefined;
        expect(() => {
          pending = interaction.ask(hostileRequest as AskUserQuestionRequest);
        }).not.toThrow();
        later();
        expect(pending).toBeInstanceOf(Promise);
        try {
          const answer = (await pending) as { answer: unknown };
          expect(typeof answer.answer).toBe('string');
          expect(isBlankText(answer.answer as string)).toBe(false);
        } catch (error) {
          expect(error).toBeInstanceOf(UserInteractionError);
        }
      }),
      { numRuns: 1_500, interruptAfterTimeLimit: 4_000 },
    );
  });
});
