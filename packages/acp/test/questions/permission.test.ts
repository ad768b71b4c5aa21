import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { answerFromPermission, permissionRequestForQuestion } from '../../src/index.js';
import { permissionOptionId } from '../../src/questions/permission-request-for-question.js';
import { thrownCode } from '../support/code-of.js';

const request: AskUserQuestionRequest = {
  question: 'Which database?',
  header: 'Database',
  allowCustom: true,
  options: [
    { label: 'PostgreSQL', value: 'pg', description: 'Shared server.' },
    { label: 'SQLite', recommended: true },
  ],
};
const scope = { sessionId: 'session-1', toolCallId: 'call-1' };

describe('permissionRequestForQuestion', () => {
  it('makes the question the tool call title and each option a one-time permission option', () => {
    expect(permissionRequestForQuestion(request, scope)).toEqual({
      sessionId: 'session-1',
      toolCall: { toolCallId: 'call-1', title: 'Which database?' },
      options: [
        { optionId: 'option-0', name: 'PostgreSQL', kind: 'allow_once' },
        { optionId: 'option-1', name: 'SQLite', kind: 'allow_once' },
      ],
    });
  });

  it('fails with UNSUPPORTED for a question without options', () => {
    expect(thrownCode(() => permissionRequestForQuestion({ question: 'Name?' }, scope))).toBe(
      'UNSUPPORTED',
    );
    expect(
      thrownCode(() => permissionRequestForQuestion({ question: 'Name?', options: [] }, scope)),
    ).toBe('UNSUPPORTED');
  });

  it('fails with ASK_FAILED without a tool call id', () => {
    expect(
      thrownCode(() => permissionRequestForQuestion(request, { sessionId: 's' } as never)),
    ).toBe('ASK_FAILED');
  });
});

describe('answerFromPermission', () => {
  it('maps a selected option to its answer', () => {
    const first = answerFromPermission(request, {
      outcome: { outcome: 'selected', optionId: permissionOptionId(0) },
    });
    expect(first).toEqual({ answer: 'pg', option: request.options?.[0] });
    expect(first.option).toBe(request.options?.[0]);
    expect(
      answerFromPermission(request, { outcome: { outcome: 'selected', optionId: 'option-1' } }),
    ).toEqual({ answer: 'SQLite', option: request.options?.[1] });
  });

  it('maps cancelled to ASK_CANCELLED', () => {
    expect(
      thrownCode(() => answerFromPermission(request, { outcome: { outcome: 'cancelled' } })),
    ).toBe('ASK_CANCELLED');
  });

  it.each([
    ['an option id past the end', { outcome: { outcome: 'selected', optionId: 'option-2' } }],
    ['a negative index', { outcome: { outcome: 'selected', optionId: 'option--1' } }],
    ['a padded index', { outcome: { outcome: 'selected', optionId: 'option-01' } }],
    ['an option label instead of an id', { outcome: { outcome: 'selected', optionId: 'SQLite' } }],
    ['a prototype key', { outcome: { outcome: 'selected', optionId: 'constructor' } }],
    ['a numeric option id', { outcome: { outcome: 'selected', optionId: 0 } }],
    ['no option id', { outcome: { outcome: 'selected' } }],
    ['an unknown outcome', { outcome: { outcome: 'approved', optionId: 'option-0' } }],
    ['an outcome that is a string', { outcome: 'selected' }],
    ['no outcome', {}],
    ['a reply that is not an object', 'option-0'],
    ['a null reply', null],
  ])('rejects %s with INVALID_ANSWER', (_name, response) => {
    expect(thrownCode(() => answerFromPermission(request, response))).toBe('INVALID_ANSWER');
  });
});
