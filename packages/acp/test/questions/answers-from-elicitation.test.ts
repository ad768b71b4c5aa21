import {
  type AskUserQuestionsRequest,
  isUserInteractionError,
  REQUEST_LIMITS,
  validateAnswers,
  validateQuestionsRequest,
} from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { answersFromElicitation } from '../../src/index.js';

const REQUEST: AskUserQuestionsRequest = validateQuestionsRequest({
  questions: [
    {
      id: 'db',
      question: 'Which database?',
      options: [{ label: 'PostgreSQL', value: 'pg' }, { label: 'SQLite' }],
    },
    {
      id: 'features',
      question: 'Which features?',
      multiSelect: true,
      options: [{ label: 'Auth', value: 'auth' }, { label: 'Tests' }, { label: 'Docs' }],
    },
    {
      id: 'ci',
      question: 'Which CI?',
      allowCustom: false,
      options: [{ label: 'Actions' }, { label: 'None' }],
    },
    { id: 'name', question: 'Which name?' },
  ],
});
const [DB, FEATURES, CI] = REQUEST.questions;

const ANSWERED = { db: 'SQLite', features: ['Tests'], ci: 'None', name: 'my-app' };

function accept(content: unknown) {
  return answersFromElicitation(REQUEST, { action: 'accept', content });
}

function problemOf(content: unknown): string {
  try {
    accept(content);
  } catch (error) {
    expect(isUserInteractionError(error, 'INVALID_ANSWER')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('the content was accepted');
}

describe('answersFromElicitation', () => {
  it('maps every question back, in question order, with the question own options', () => {
    const answer = accept({ name: '  my-app ', ci: 'None', features: ['Docs', 'auth'], db: 'pg' });
    expect(answer).toEqual({
      answers: [
        { id: 'db', answers: ['pg'], options: [DB?.options?.[0]] },
        {
          id: 'features',
          answers: ['auth', 'Docs'],
          options: [FEATURES?.options?.[0], FEATURES?.options?.[2]],
        },
        { id: 'ci', answers: ['None'], options: [CI?.options?.[1]] },
        { id: 'name', answers: ['my-app'], options: [], custom: 'my-app' },
      ],
    });
    // What the service checks it with agrees.
    expect(validateAnswers(REQUEST, answer)).toEqual(answer);
  });

  it('takes typed text instead of a single choice, and next to ticks', () => {
    const answer = accept({
      ...ANSWERED,
      db: 'pg',
      'db:custom': ' DuckDB ',
      'features:custom': 'metrics',
    });
    expect(answer.answers[0]).toEqual({
      id: 'db',
      answers: ['DuckDB'],
      options: [],
      custom: 'DuckDB',
    });
    expect(answer.answers[1]).toMatchObject({ answers: ['Tests', 'metrics'], custom: 'metrics' });
    // Typed text alone answers a multi-select; blank typed text is no answer.
    expect(accept({ ...ANSWERED, features: [], 'features:custom': 'x' }).answers[1]).toMatchObject({
      answers: ['x'],
    });
    expect(accept({ ...ANSWERED, 'db:custom': '\u200b ' }).answers[0]).toMatchObject({
      answers: ['SQLite'],
    });
  });

  it.each([
    ['a question left out', { ...ANSWERED, db: undefined }, '`db` was not answered'],
    [
      'nothing ticked and nothing typed',
      { ...ANSWERED, features: [] },
      '`features` was not answered',
    ],
    ['a blank free-form answer', { ...ANSWERED, name: '   ' }, '`name` was not answered'],
    ['a value never offered', { ...ANSWERED, db: 'COBOL' }, 'not one of its options'],
    [
      'a tick never offered',
      { ...ANSWERED, features: ['Tests', 'COBOL'] },
      'not one of its options',
    ],
    ['the same tick twice', { ...ANSWERED, features: ['Tests', 'Tests'] }, 'the same choice twice'],
    ['ticks that are not a list', { ...ANSWERED, features: 'Tests' }, 'are not a list'],
    ['a choice that is not text', { ...ANSWERED, ci: 1 }, 'not one of its options'],
    [
      'typed text where only options go',
      { ...ANSWERED, 'ci:custom': 'GitLab' },
      'a field the form does not have',
    ],
    [
      'a field the form does not have',
      { ...ANSWERED, extra: 'x' },
      'a field the form does not have',
    ],
    ['typed text that is not text', { ...ANSWERED, 'db:custom': 3 }, '`db` is not text'],
    [
      'typed text longer than the form allows',
      { ...ANSWERED, 'db:custom': 'x'.repeat(REQUEST_LIMITS.answerLength + 1) },
      'longer than',
    ],
    ['content that is not an object', ['SQLite'], 'not an object'],
  ])('refuses %s with INVALID_ANSWER, never repeating what was sent', (_name, content, problem) => {
    const message = problemOf(content);
    expect(message).toContain(problem);
    expect(message).not.toContain('COBOL');
    expect(message).not.toContain('GitLab');
  });

  it('an accept without content is an empty form; decline and cancel fail the whole set', () => {
    expect(problemOf(undefined)).toContain('`db` was not answered');
    expect(() => answersFromElicitation(REQUEST, { action: 'decline' })).toThrow(
      expect.objectContaining({ code: 'ASK_DECLINED' }),
    );
    expect(() => answersFromElicitation(REQUEST, { action: 'cancel' })).toThrow(
      expect.objectContaining({ code: 'ASK_CANCELLED' }),
    );
    expect(() => answersFromElicitation(REQUEST, { action: 'maybe' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ANSWER' }),
    );
    expect(() => answersFromElicitation(REQUEST, null)).toThrow(
      expect.objectContaining({ code: 'INVALID_ANSWER' }),
    );
  });
});
