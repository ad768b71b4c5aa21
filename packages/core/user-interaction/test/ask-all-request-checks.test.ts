import { describe, expect, it } from 'vitest';
import type { AskUserQuestionsRequest } from '../src/index.js';
import { FEATURES, LANGUAGE, NAME, PLAN, withScripted } from './support/ask-all-plan.js';

describe('askAll checks the request as ask() does, naming the field', () => {
  async function fieldOf(request: unknown): Promise<string | undefined> {
    const { interaction, provider } = withScripted();
    const error = await interaction.askAll(request as AskUserQuestionsRequest).catch((e) => e);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(error.message).toContain(`\`${error.field}\``);
    expect(provider.batches).toHaveLength(0);
    return error.field;
  }

  it.each([
    ['no questions', {}, 'questions'],
    ['questions that are not a list', { questions: 'a, b' }, 'questions'],
    ['an empty list', { questions: [] }, 'questions'],
    [
      'eleven questions',
      { questions: Array.from({ length: 11 }, (_, i) => ({ ...NAME, id: `q${i}` })) },
      'questions',
    ],
    ['a question that is not an object', { questions: [NAME, 'Why?'] }, 'questions[1]'],
    ['a question without an id', { questions: [{ question: 'Why?' }] }, 'questions[0].id'],
    ['an id with a space', { questions: [{ ...NAME, id: 'my name' }] }, 'questions[0].id'],
    ['an id with a dot', { questions: [{ ...NAME, id: 'a.b' }] }, 'questions[0].id'],
    ['a 65-character id', { questions: [{ ...NAME, id: 'x'.repeat(65) }] }, 'questions[0].id'],
    [
      'a repeated id',
      { questions: [NAME, LANGUAGE, { ...FEATURES, id: 'name' }] },
      'questions[2].id',
    ],
    [
      'a blank question',
      { questions: [LANGUAGE, { id: 'b', question: '\u200b' }] },
      'questions[1].question',
    ],
    [
      'a blank label',
      { questions: [LANGUAGE, NAME, { ...FEATURES, options: [{ label: ' ' }] }] },
      'questions[2].options[0].label',
    ],
    [
      'labels a person cannot tell apart',
      { questions: [{ ...LANGUAGE, options: [{ label: 'Go' }, { label: 'GO ' }] }] },
      'questions[0].options[1].label',
    ],
    [
      'a snake_case field',
      { questions: [{ ...NAME, allow_custom: true }] },
      'questions[0].allow_custom',
    ],
    [
      'a multi-select that is not a boolean',
      { questions: [{ ...FEATURES, multiSelect: 'yes' }] },
      'questions[0].multiSelect',
    ],
    [
      'a multi-select without options',
      { questions: [{ ...NAME, multiSelect: true }] },
      'questions[0].options',
    ],
    ['a single question next to the list', { ...PLAN, question: 'Why?' }, 'question'],
    ['a blank header', { ...PLAN, header: '' }, 'header'],
    ['a time limit of zero', { ...PLAN, timeoutMs: 0 }, 'timeoutMs'],
  ])('refuses %s', async (_name, request, field) => {
    expect(await fieldOf(request)).toBe(field);
  });

  it('reads every field once: a getter that throws is INVALID_REQUEST naming it, never a throw', async () => {
    const item = {
      id: 'x',
      get question(): string {
        throw new Error('boom');
      },
    };
    expect(await fieldOf({ questions: [item] })).toBe('questions[0].question');
    const list = new Proxy([NAME], {
      get(target, key, receiver) {
        if (key === '0') throw new Error('boom');
        return Reflect.get(target, key, receiver);
      },
    });
    expect(await fieldOf({ questions: list })).toBe('questions[0]');
    let reads = 0;
    const counted = {
      id: 'counted',
      get question() {
        reads++;
        return reads === 1 ? 'First?' : '';
      },
    };
    const { interaction, provider } = withScripted({
      answers: [{ answers: { counted: { custom: 'ok' } } }],
    });
    await interaction.askAll({ questions: [counted] });
    expect(reads).toBe(1);
    expect(provider.batches[0]?.questions[0]?.question).toBe('First?');
  });
});
