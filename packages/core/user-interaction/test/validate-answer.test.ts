import { describe, expect, it } from 'vitest';
import {
  type AskUserQuestionRequest,
  acceptsCustomAnswer,
  answerForOption,
  isBlankText,
  optionValue,
  REQUEST_LIMITS,
  recommendedOption,
  UserInteractionError,
  validateAnswer,
} from '../src/index.js';

const postgres = { label: 'PostgreSQL', value: 'postgres', recommended: true };
const sqlite = { label: 'SQLite' };
const choice: AskUserQuestionRequest = { question: 'Which database?', options: [postgres, sqlite] };
const open: AskUserQuestionRequest = { question: 'Project name?' };

function rejects(request: AskUserQuestionRequest, answer: unknown): string {
  try {
    validateAnswer(request, answer);
  } catch (error) {
    expect(error).toBeInstanceOf(UserInteractionError);
    expect((error as UserInteractionError).code).toBe('INVALID_ANSWER');
    return (error as UserInteractionError).message;
  }
  throw new Error('expected INVALID_ANSWER');
}

describe('question helpers', () => {
  it('value defaults to label', () => {
    expect(optionValue(postgres)).toBe('postgres');
    expect(optionValue(sqlite)).toBe('SQLite');
    expect(answerForOption(sqlite)).toEqual({ answer: 'SQLite', option: sqlite });
  });

  it('a custom answer is accepted unless refused (the default is to accept), and always without options', () => {
    expect(acceptsCustomAnswer(choice)).toBe(true);
    expect(acceptsCustomAnswer({ ...choice, allowCustom: false })).toBe(false);
    expect(acceptsCustomAnswer({ ...choice, allowCustom: true })).toBe(true);
    expect(acceptsCustomAnswer(open)).toBe(true);
    expect(acceptsCustomAnswer({ options: [], allowCustom: false })).toBe(true);
  });

  it('isBlankText sees through invisible and control characters, and keeps visible text', () => {
    for (const blank of ['', ' ', '\t\n', '\u200b', '\ufeff', '\u001b', '\u0007', '\u202e\u2066']) {
      expect(isBlankText(blank), JSON.stringify(blank)).toBe(true);
    }
    for (const visible of ['a', ' x ', '\u200bx', 'é', '日本', '🙂', '\u001b[31m']) {
      expect(isBlankText(visible), JSON.stringify(visible)).toBe(false);
    }
  });

  it('finds the recommended option', () => {
    expect(recommendedOption(choice)).toBe(postgres);
    expect(recommendedOption(open)).toBeUndefined();
  });
});

describe('validateAnswer', () => {
  it('returns the request’s own option for a chosen option', () => {
    const result = validateAnswer(choice, { answer: 'postgres', option: postgres });
    expect(result).toEqual({ answer: 'postgres', option: postgres });
    expect(result.option).toBe(postgres);
  });

  it('recognises an option a UI rebuilt from the wire', () => {
    const result = validateAnswer(choice, { answer: 'SQLite', option: { label: 'SQLite' } });
    expect(result.option).toBe(sqlite);
  });

  it('accepts typed text where custom answers are allowed, and drops extra fields', () => {
    expect(validateAnswer(open, { answer: 'my-app', extra: 1 })).toEqual({ answer: 'my-app' });
    expect(validateAnswer({ ...choice, allowCustom: true }, { answer: 'MySQL' })).toEqual({
      answer: 'MySQL',
    });
  });

  it.each([
    ['not an object', 'postgres', 'not an object'],
    ['null', null, 'not an object'],
    ['no answer text', { option: postgres }, 'not a string'],
    ['blank answer text', { answer: '   ', option: postgres }, 'blank'],
    ['answer text of a zero-width space', { answer: '\u200b' }, 'blank'],
    ['answer text of control characters', { answer: '\u001b\u0007' }, 'blank'],
    ['answer text of a bidirectional mark', { answer: ' \u200f ' }, 'blank'],
    ['an option that is not an object', { answer: 'x', option: 'postgres' }, 'not an option'],
  ])('rejects %s', (_name, answer, message) => {
    expect(rejects(choice, answer)).toContain(message);
  });

  it('rejects an option the question did not offer', () => {
    expect(rejects(choice, { answer: 'MySQL', option: { label: 'MySQL' } })).toContain(
      'not one of the question',
    );
    expect(rejects(open, { answer: 'x', option: { label: 'x' } })).toContain('not one of');
  });

  it('rejects answer text that is not the chosen option’s value', () => {
    expect(rejects(choice, { answer: 'PostgreSQL', option: postgres })).toContain('not the value');
  });

  it(`rejects typed text longer than ${REQUEST_LIMITS.answerLength} characters, and takes it up to that`, () => {
    const longest = 'a'.repeat(REQUEST_LIMITS.answerLength);
    expect(validateAnswer(open, { answer: longest })).toEqual({ answer: longest });
    expect(rejects(open, { answer: `${longest}a` })).toContain('longer than 100000 characters');
  });

  it('rejects typed text when only the options are accepted', () => {
    expect(rejects({ ...choice, allowCustom: false }, { answer: 'MySQL' })).toContain(
      'only accepts its options',
    );
    // By default a question with options also takes a typed answer.
    expect(validateAnswer(choice, { answer: 'MySQL' })).toEqual({ answer: 'MySQL' });
  });
});
