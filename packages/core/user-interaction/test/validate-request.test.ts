import { describe, expect, it } from 'vitest';
import {
  type AskUserQuestionRequest,
  createUserInteraction,
  REQUEST_LIMITS,
  validateRequest,
} from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { fieldOf } from './support/field-of.js';
import { FULL_QUESTION, INVALID_OPTIONS } from './support/question-requests.js';

const base = { question: 'Which database?' };

describe('validateRequest', () => {
  it('accepts a minimal question and returns a frozen snapshot of it', () => {
    const valid = validateRequest(base);
    expect(valid).toEqual(base);
    expect(valid).not.toBe(base);
    expect(Object.isFrozen(valid)).toBe(true);
  });

  it('accepts a full question', () => {
    const controller = new AbortController();
    const request: AskUserQuestionRequest = {
      ...FULL_QUESTION,
      agent: { id: 'agent-1' },
      signal: controller.signal,
      timeoutMs: 30_000,
    };
    const valid = validateRequest(request);
    expect(valid).toEqual(request);
    expect(valid.signal).toBe(controller.signal);
    for (const part of [valid, valid.options, ...(valid.options ?? []), valid.agent]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
  });

  it.each([
    ['not an object', 'Which?', 'request'],
    ['null', null, 'request'],
    ['an array', [base], 'request'],
    ['no question', {}, 'question'],
    ['a blank question', { question: ' \n\t ' }, 'question'],
    ['a question that is not a string', { question: 42 }, 'question'],
    [
      'an over-long question',
      { question: 'x'.repeat(REQUEST_LIMITS.questionLength + 1) },
      'question',
    ],
    ['a question of invisible characters', { question: '\u200b\u200d\u2060' }, 'question'],
    ['a question of control characters', { question: '\u001b\u0007\n' }, 'question'],
    ['a blank header', { ...base, header: '  ' }, 'header'],
    [
      'an over-long header',
      { ...base, header: 'h'.repeat(REQUEST_LIMITS.headerLength + 1) },
      'header',
    ],
    ['allowCustom that is not a boolean', { ...base, allowCustom: 'true' }, 'allowCustom'],
    ['an agent without id', { ...base, agent: {} }, 'agent.id'],
    ['an agent that is a string', { ...base, agent: 'me' }, 'agent'],
    ['a signal that is not an AbortSignal', { ...base, signal: {} }, 'signal'],
    ['a zero time limit', { ...base, timeoutMs: 0 }, 'timeoutMs'],
    ['a negative time limit', { ...base, timeoutMs: -5 }, 'timeoutMs'],
    ['a NaN time limit', { ...base, timeoutMs: Number.NaN }, 'timeoutMs'],
    ['an infinite time limit', { ...base, timeoutMs: Number.POSITIVE_INFINITY }, 'timeoutMs'],
    [
      'a time limit beyond what a timer can hold',
      { ...base, timeoutMs: REQUEST_LIMITS.timeoutMs + 1 },
      'timeoutMs',
    ],
    ['an unknown field', { ...base, allow_custom: true }, 'allow_custom'],
  ])('rejects %s, naming the field', (_name, request, field) => {
    expect(fieldOf(request)).toBe(field);
  });

  it.each(INVALID_OPTIONS)('rejects %s, naming the field', (_name, options, field) => {
    expect(fieldOf({ ...base, options })).toBe(field);
  });

  it('accepts every bound exactly at its limit', () => {
    const request = {
      question: 'q'.repeat(REQUEST_LIMITS.questionLength),
      header: 'h'.repeat(REQUEST_LIMITS.headerLength),
      options: [
        {
          label: 'l'.repeat(REQUEST_LIMITS.labelLength),
          value: 'v'.repeat(REQUEST_LIMITS.valueLength),
          description: 'd'.repeat(REQUEST_LIMITS.descriptionLength),
        },
      ],
      timeoutMs: REQUEST_LIMITS.timeoutMs,
    };
    expect(validateRequest(request)).toEqual(request);
  });

  it('has no cap of four: long option lists are normal, up to the documented bound', () => {
    const options = Array.from({ length: REQUEST_LIMITS.options }, (_, i) => ({
      label: `Option ${i}`,
    }));
    expect(validateRequest({ ...base, options }).options).toHaveLength(REQUEST_LIMITS.options);
    expect(fieldOf({ ...base, options: [...options, { label: 'One more' }] })).toBe('options');
  });

  it('finds duplicates in long lists too', () => {
    const options = Array.from({ length: 500 }, (_, i) => ({ label: `Option ${i}` }));
    expect(fieldOf({ ...base, options: [...options, { label: 'option 7' }] })).toBe(
      'options[500].label',
    );
    expect(fieldOf({ ...base, options: [...options, { label: 'Z', value: 'Option 9' }] })).toBe(
      'options[500].value',
    );
    const twoRecommended = options.map((o, i) => ({ ...o, recommended: i === 3 || i === 400 }));
    expect(fieldOf({ ...base, options: twoRecommended })).toBe('options[400].recommended');
  });

  it('ask() refuses an unknown option field too, naming it', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ label: 'A' }] }));
    const error = await interaction
      .ask({ ...base, options: [{ label: 'A', descripton: 'x' } as never] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', field: 'options[0].descripton' });
    expect((error as Error).message).toContain('`options[0].descripton`');
  });

  it('treats an empty option list as a free-form question', () => {
    expect(fieldOf({ ...base, options: [], allowCustom: false })).toBeUndefined();
  });

  it('accepts the same label as another option value when both stay distinct', () => {
    const request = {
      ...base,
      options: [
        { label: 'A', value: 'b' },
        { label: 'B', value: 'a' },
      ],
    };
    expect(fieldOf(request)).toBeUndefined();
  });
});
