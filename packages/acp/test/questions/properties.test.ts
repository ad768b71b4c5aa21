import { client, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import {
  type AskUserQuestionRequest,
  answerForOption,
  isUserInteractionError,
  REQUEST_LIMITS,
  validateAnswer,
  validateRequest,
} from 'dsh-user-interaction';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerFromElicitation,
  answerFromPermission,
  elicitationForQuestion,
  permissionRequestForQuestion,
} from '../../src/index.js';
import { QUESTION_FORM_FIELDS } from '../../src/questions/question-form.js';
import { createTestAgent } from '../support/test-agent.js';

const tricky = fc.constantFrom(
  '__proto__',
  'constructor',
  'toString',
  'choice',
  'text',
  'option-0',
  ' padded ',
  'naïve café',
  '😀',
  'a\nb',
);
const word = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), tricky);

/** Any request the contract accepts (built freely, kept only when `validateRequest` agrees). */
const validRequest: fc.Arbitrary<AskUserQuestionRequest> = fc
  .record(
    {
      question: word,
      header: word,
      options: fc.array(
        fc.record({ label: word, value: word, description: word }, { requiredKeys: ['label'] }),
        { maxLength: 8 },
      ),
      recommended: fc.nat(),
      allowCustom: fc.boolean(),
    },
    { requiredKeys: ['question'] },
  )
  .map(({ recommended, options, ...rest }) => {
    const request: AskUserQuestionRequest = {
      ...rest,
      ...(options === undefined
        ? {}
        : {
            options: options.map((option, index) =>
              (recommended ?? -1) % (options.length + 1) === index
                ? { ...option, recommended: true }
                : option,
            ),
          }),
    };
    return request;
  })
  .filter((request) => {
    try {
      validateRequest(request);
      return true;
    } catch {
      return false;
    }
  });

const scope = { sessionId: 'session-1', toolCallId: 'call-1' };
const ALLOWED_KEYS = new Set([
  'type',
  'title',
  'description',
  'oneOf',
  'default',
  'minLength',
  'maxLength',
  'pattern',
]);

const replyLike = fc.oneof(
  fc.anything(),
  fc.record(
    {
      action: fc.oneof(fc.constantFrom('accept', 'decline', 'cancel', 'other'), fc.anything()),
      content: fc.oneof(
        fc.anything(),
        fc.dictionary(
          fc.oneof(fc.constantFrom('choice', 'text'), fc.string()),
          fc.oneof(word, fc.anything()),
        ),
      ),
    },
    { requiredKeys: [] },
  ),
);

describe('properties', () => {
  it('any valid request yields a flat, JSON-safe form of string fields', () => {
    fc.assert(
      fc.property(validRequest, (request) => {
        const params = elicitationForQuestion(request, scope);
        expect(JSON.parse(JSON.stringify(params))).toEqual(params);
        const { requestedSchema } = params;
        expect(requestedSchema.type).toBe('object');
        const names = Object.keys(requestedSchema.properties);
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) {
          expect(Object.values(QUESTION_FORM_FIELDS)).toContain(name);
          const property = requestedSchema.properties[name as 'choice' | 'text'];
          expect(property?.type).toBe('string');
          for (const key of Object.keys(property ?? {})) expect(ALLOWED_KEYS.has(key)).toBe(true);
        }
        for (const name of requestedSchema.required) expect(names).toContain(name);
        const text = requestedSchema.properties.text;
        if (text !== undefined) expect(text.maxLength).toBe(REQUEST_LIMITS.answerLength);
        const choice = requestedSchema.properties.choice;
        if (choice !== undefined) {
          const consts = choice.oneOf.map((entry) => entry.const);
          expect(new Set(consts).size).toBe(consts.length);
          if (choice.default !== undefined) expect(consts).toContain(choice.default);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('every offered choice round-trips to that option, and the answer satisfies the contract', () => {
    fc.assert(
      fc.property(validRequest, (request) => {
        const choice = elicitationForQuestion(request, scope).requestedSchema.properties.choice;
        (choice?.oneOf ?? []).forEach((entry, index) => {
          const option = request.options?.[index];
          if (option === undefined) throw new Error('choice without option');
          const answer = answerFromElicitation(request, {
            action: 'accept',
            content: { choice: entry.const },
          });
          expect(answer).toEqual(answerForOption(option));
          expect(answer.option).toBe(option);
          expect(validateAnswer(request, answer)).toEqual(answer);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('typed text round-trips trimmed wherever the form has a text field', () => {
    fc.assert(
      fc.property(validRequest, word, (request, typed) => {
        const { properties } = elicitationForQuestion(request, scope).requestedSchema;
        fc.pre(properties.text !== undefined && typed.trim().length > 0);
        const answer = answerFromElicitation(request, {
          action: 'accept',
          content: {
            ...(properties.choice?.default ? { choice: properties.choice.default } : {}),
            text: typed,
          },
        });
        expect(answer).toEqual({ answer: typed.trim() });
        expect(validateAnswer(request, answer)).toEqual(answer);
      }),
      { numRuns: 300 },
    );
  });

  it('every permission option round-trips to its option', () => {
    fc.assert(
      fc.property(validRequest, (request) => {
        fc.pre((request.options?.length ?? 0) > 0);
        const params = permissionRequestForQuestion(request, scope);
        params.options.forEach((permission, index) => {
          const answer = answerFromPermission(request, {
            outcome: { outcome: 'selected', optionId: permission.optionId },
          });
          expect(answer.option).toBe(request.options?.[index]);
          expect(validateAnswer(request, answer)).toEqual(answer);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('any reply yields an answer the contract accepts or a UserInteractionError, never anything else', () => {
    fc.assert(
      fc.property(validRequest, replyLike, (request, reply) => {
        try {
          const answer = answerFromElicitation(request, reply);
          expect(validateAnswer(request, answer)).toEqual(answer);
        } catch (error) {
          expect(isUserInteractionError(error)).toBe(true);
          expect(['INVALID_ANSWER', 'ASK_DECLINED', 'ASK_CANCELLED']).toContain(
            (error as { code: string }).code,
          );
        }
        try {
          const answer = answerFromPermission(request, reply);
          expect(validateAnswer(request, answer)).toEqual(answer);
        } catch (error) {
          expect(isUserInteractionError(error)).toBe(true);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it("the SDK's client accepts every form we send, and its choice comes back as that option", async () => {
    const testAgent = createTestAgent();
    let pick = 0;
    const editor = client().onRequest(methods.client.elicitation.create, ({ params }) => {
      if (params.mode !== 'form') throw new Error('not a form');
      const properties = (params as { requestedSchema: { properties: Record<string, unknown> } })
        .requestedSchema.properties;
      const choice = properties.choice as { oneOf: { const: string }[] } | undefined;
      const entry = choice?.oneOf[pick % choice.oneOf.length];
      return entry !== undefined
        ? { action: 'accept', content: { choice: entry.const } }
        : { action: 'accept', content: { text: 'typed' } };
    });
    await editor.connectWith(testAgent.app, async (agent) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { elicitation: { form: {} } },
      });
      testAgent.scopes.set('property', scope);
      await fc.assert(
        fc.asyncProperty(validRequest, fc.nat(), async (request, index) => {
          pick = index;
          const answer = await testAgent.provider().ask({ ...request, agent: { id: 'property' } });
          const options = request.options ?? [];
          const expected =
            options.length === 0
              ? { answer: 'typed' }
              : answerForOption(options[index % options.length] as never);
          expect(answer).toEqual(expected);
        }),
        { numRuns: 200 },
      );
    });
  });
});
