import { describe, expect, it } from 'vitest';
import type { AskUserQuestionsRequest } from '../src/index.js';
import { FEATURES, LANGUAGE, PLAN, withScripted } from './support/ask-all-plan.js';

describe('askAll checks the answer against every question', () => {
  async function problemOf(raw: unknown, request: AskUserQuestionsRequest = PLAN) {
    const { interaction } = withScripted({ answers: [{ raw }] });
    return await interaction.askAll(request).catch((error) => error);
  }
  const language = { id: 'language', answers: ['TypeScript'], options: [LANGUAGE.options[0]] };
  const name = { id: 'name', answers: ['my-app'], options: [], custom: 'my-app' };
  const features = { id: 'features', answers: ['auth'], options: [FEATURES.options[0]] };

  it('accepts options a UI rebuilt from the wire, and returns the question own ones', async () => {
    const rebuilt = {
      id: 'features',
      answers: ['auth'],
      options: [{ label: 'AUTHENTICATION', value: 'auth' }],
    };
    const answer = await problemOf({ answers: [language, name, rebuilt] });
    expect(answer.answers?.[2]).toEqual(features);
  });

  it.each([
    ['not an object', 'yes', 'it is not an object'],
    ['answers that are not a list', { answers: 'all' }, '`answers` is not an array'],
    ['a missing question', { answers: [language, name] }, '`features` has no answer'],
    [
      'an unknown question',
      { answers: [language, name, { ...features, id: 'other' }] },
      'names no question',
    ],
    [
      'a question answered twice',
      { answers: [language, name, language] },
      '`language` is answered twice',
    ],
    [
      'more answers than questions',
      { answers: [language, name, features, features] },
      '4 answers for 3 questions',
    ],
    [
      'an unknown value',
      {
        answers: [
          language,
          name,
          { ...features, options: [{ label: 'Authentication', value: 'oauth' }] },
        ],
      },
      'not one of its options',
    ],
    [
      'two options for a single choice',
      {
        answers: [
          { ...language, answers: ['TypeScript', 'Go'], options: LANGUAGE.options },
          name,
          features,
        ],
      },
      '`language` takes one answer, and has 2',
    ],
    [
      'an option and a typed answer for a single choice',
      {
        answers: [language, { ...name }, { ...features }].map((entry, i) =>
          i === 0 ? { ...entry, answers: ['TypeScript', 'Rust'], custom: 'Rust' } : entry,
        ),
      },
      'only accepts its options',
    ],
    [
      'a multi-select with nothing chosen',
      { answers: [language, name, { ...features, answers: [], options: [] }] },
      '`features` has no answer',
    ],
    [
      'the same option twice',
      {
        answers: [
          language,
          name,
          {
            ...features,
            answers: ['auth', 'auth'],
            options: [FEATURES.options[0], FEATURES.options[0]],
          },
        ],
      },
      'the same option twice',
    ],
    [
      'a blank typed answer',
      { answers: [language, { ...name, answers: [' '], custom: ' ' }, features] },
      'typed answer of `name` is blank',
    ],
    [
      'answers that do not match the options',
      { answers: [language, name, { ...features, answers: ['tests'] }] },
      '`answers` of `features`',
    ],
    [
      'options that are not a list',
      { answers: [language, name, { ...features, options: 'auth' }] },
      '`options` of `features` is not an array',
    ],
  ])('refuses %s with INVALID_ANSWER', async (_name, raw, message) => {
    const error = await problemOf(raw);
    expect(error).toMatchObject({ code: 'INVALID_ANSWER' });
    expect(error.message).toContain(message);
  });

  it('refuses a single choice with both an option and typed text, where typed text is allowed', async () => {
    const open = { ...LANGUAGE, allowCustom: true };
    const error = await problemOf(
      { answers: [{ ...language, answers: ['TypeScript', 'Rust'], custom: 'Rust' }] },
      { questions: [open] },
    );
    expect(error).toMatchObject({ code: 'INVALID_ANSWER' });
    expect(error.message).toContain('`language` takes one answer, and has 2');
  });

  it('an answer whose getters throw is ASK_FAILED, never a throw', async () => {
    const hostile = {
      get answers(): never {
        throw new Error('secret detail');
      },
    };
    const error = await problemOf(hostile);
    expect(error).toMatchObject({ code: 'ASK_FAILED' });
    expect(error.message).not.toContain('secret detail');
    const entry = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    expect(await problemOf({ answers: [entry] })).toMatchObject({ code: 'ASK_FAILED' });
  });
});
