import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createUserInteraction,
  executeAskUserQuestion,
  isUserInteractionError,
  parseAskUserQuestionArguments,
  validateRequest,
} from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';

const text = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', 'Yes', 'yes', '\u001b[2J', 'x'.repeat(600)),
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof(fc.constant(undefined), fc.constant(null), arbitrary, fc.anything());
const optionLike = fc.oneof(
  fc.anything(),
  fc.record(
    {
      label: maybe(text),
      value: maybe(text),
      description: maybe(text),
      recommended: maybe(fc.boolean()),
    },
    { requiredKeys: [] },
  ),
);
const requestLike = fc.oneof(
  fc.anything(),
  fc.record(
    {
      question: maybe(text),
      header: maybe(text),
      options: maybe(fc.array(optionLike, { maxLength: 6 })),
      allowCustom: maybe(fc.boolean()),
      agent: maybe(fc.record({ id: maybe(text) })),
      timeoutMs: maybe(fc.oneof(fc.integer(), fc.double())),
    },
    { requiredKeys: [] },
  ),
);
const argumentsLike = fc.oneof(
  requestLike,
  fc.string(),
  fc.json(),
  fc.record(
    {
      question: maybe(text),
      header: maybe(text),
      options: maybe(fc.array(optionLike, { maxLength: 6 })),
      allow_custom: maybe(fc.boolean()),
    },
    { requiredKeys: [] },
  ),
);

/** A provider that answers with the first option, else with typed text. */
function firstOptionProvider() {
  return {
    async ask(request: { options?: readonly { label: string; value?: string }[] }) {
      const option = request.options?.[0];
      return option === undefined
        ? { answer: 'typed' }
        : { answer: option.value ?? option.label, option };
    },
  };
}

describe('properties', () => {
  it('any request object yields an answer or a UserInteractionError, never another exception', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(firstOptionProvider());
    await fc.assert(
      fc.asyncProperty(requestLike, async (request) => {
        try {
          const answer = await interaction.ask(request as never);
          expect(typeof answer.answer).toBe('string');
          expect(answer.answer.trim()).not.toBe('');
        } catch (error) {
          expect(isUserInteractionError(error)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('a request either passes validation or fails with INVALID_REQUEST naming a field', () => {
    fc.assert(
      fc.property(requestLike, (request) => {
        try {
          validateRequest(request);
        } catch (error) {
          expect(isUserInteractionError(error, 'INVALID_REQUEST')).toBe(true);
          expect((error as { field?: string }).field).toBeTruthy();
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('any tool arguments yield a request or INVALID_REQUEST; the executor never throws', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider());
    await fc.assert(
      fc.asyncProperty(argumentsLike, async (args) => {
        try {
          parseAskUserQuestionArguments(args);
        } catch (error) {
          expect(isUserInteractionError(error, 'INVALID_REQUEST')).toBe(true);
        }
        const result = await executeAskUserQuestion(args, { interaction });
        expect(typeof result.output).toBe('string');
        if (!result.ok)
          expect(Object.keys(result.error).sort()).toEqual(['code', 'message', 'name']);
      }),
      { numRuns: 2_000 },
    );
  });
});
