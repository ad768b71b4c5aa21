import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { answerFromElicitation } from '../../src/index.js';
import { thrownCode } from '../support/code-of.js';

const choice: AskUserQuestionRequest = {
  question: 'Which database?',
  options: [
    { label: 'PostgreSQL', value: 'pg' },
    { label: 'SQLite', recommended: true },
  ],
  allowCustom: false,
};
const custom: AskUserQuestionRequest = { ...choice, allowCustom: true };
const freeForm: AskUserQuestionRequest = { question: 'Project name?' };

describe('answerFromElicitation', () => {
  it('maps an accepted choice to the option, by value', () => {
    const answer = answerFromElicitation(choice, { action: 'accept', content: { choice: 'pg' } });
    expect(answer).toEqual({ answer: 'pg', option: choice.options?.[0] });
    expect(answer.option).toBe(choice.options?.[0]);
  });

  it('maps an option without a value by its label', () => {
    const answer = answerFromElicitation(choice, {
      action: 'accept',
      content: { choice: 'SQLite' },
    });
    expect(answer.option).toBe(choice.options?.[1]);
    expect(answer.answer).toBe('SQLite');
  });

  it('lets filled text win over the choice, trimmed', () => {
    expect(
      answerFromElicitation(custom, {
        action: 'accept',
        content: { choice: 'pg', text: '  MariaDB \n' },
      }),
    ).toEqual({ answer: 'MariaDB' });
  });

  it('uses the choice when the custom text is empty or blank', () => {
    for (const text of ['', '   ', '\u200b', '\u001b\u0007']) {
      expect(
        answerFromElicitation(custom, { action: 'accept', content: { choice: 'pg', text } }).option,
      ).toBe(custom.options?.[0]);
    }
  });

  it('takes typed text for a free-form question', () => {
    expect(
      answerFromElicitation(freeForm, { action: 'accept', content: { text: ' dsh ' } }),
    ).toEqual({ answer: 'dsh' });
  });

  it('maps decline to ASK_DECLINED and cancel to ASK_CANCELLED', () => {
    expect(thrownCode(() => answerFromElicitation(choice, { action: 'decline' }))).toBe(
      'ASK_DECLINED',
    );
    expect(thrownCode(() => answerFromElicitation(choice, { action: 'cancel' }))).toBe(
      'ASK_CANCELLED',
    );
  });

  it.each([
    ['a choice we did not offer', choice, { action: 'accept', content: { choice: 'MySQL' } }],
    [
      'a label where the value is expected',
      choice,
      { action: 'accept', content: { choice: 'PostgreSQL' } },
    ],
    [
      'an unknown choice next to filled text',
      custom,
      { action: 'accept', content: { choice: 'x', text: 'y' } },
    ],
    ['no choice at all', choice, { action: 'accept', content: {} }],
    ['no content', choice, { action: 'accept' }],
    ['null content', choice, { action: 'accept', content: null }],
    ['neither choice nor text', custom, { action: 'accept', content: { text: ' ' } }],
    ['a blank free-form answer', freeForm, { action: 'accept', content: { text: '  ' } }],
    [
      'an invisible free-form answer',
      freeForm,
      { action: 'accept', content: { text: '\u200b\u200f' } },
    ],
    ['a missing free-form answer', freeForm, { action: 'accept', content: {} }],
    ['a number as the choice', choice, { action: 'accept', content: { choice: 3 } }],
    ['null as the choice', choice, { action: 'accept', content: { choice: null } }],
    ['an array as the text', freeForm, { action: 'accept', content: { text: ['a'] } }],
    ['a boolean as the text', custom, { action: 'accept', content: { choice: 'pg', text: true } }],
    [
      'text where custom answers are not allowed',
      choice,
      { action: 'accept', content: { choice: 'pg', text: 'x' } },
    ],
    [
      'a choice on a free-form question',
      freeForm,
      { action: 'accept', content: { choice: 'x', text: 'y' } },
    ],
    ['an extra field', choice, { action: 'accept', content: { choice: 'pg', comment: 'hi' } }],
    ['content that is an array', choice, { action: 'accept', content: ['pg'] }],
    ['content that is a string', choice, { action: 'accept', content: 'pg' }],
    ['an unknown action', choice, { action: 'approve', content: { choice: 'pg' } }],
    ['a missing action', choice, { content: { choice: 'pg' } }],
    ['a reply that is not an object', choice, 'accept'],
    ['a null reply', choice, null],
  ])('rejects %s with INVALID_ANSWER', (_name, request, response) => {
    expect(thrownCode(() => answerFromElicitation(request, response))).toBe('INVALID_ANSWER');
  });

  it('never echoes the client content in the error message', () => {
    try {
      answerFromElicitation(choice, { action: 'accept', content: { choice: 'secret-token-123' } });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret-token-123');
      return;
    }
    expect.unreachable();
  });
});
