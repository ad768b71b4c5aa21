import { REQUEST_LIMITS, UserInteractionError } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { answerFromElicitation, elicitationForQuestion } from '../../src/index.js';
import { elicitationForQuestions } from '../../src/questions/elicitation-for-questions.js';
import { QUESTION_FORM_FIELDS, QUESTION_FORM_WORDING } from '../../src/questions/question-form.js';
import { QUESTIONS_FORM_WORDING } from '../../src/questions/questions-form.js';
import { DATABASE_QUESTION } from '../support/database-question.js';

const scope = { sessionId: 'session-1', toolCallId: 'call-1' };

describe('elicitationForQuestion', () => {
  it('says in its message how long is left to answer, and what happens then', () => {
    const timed = elicitationForQuestion({ question: 'Name?', timeoutMs: 90_000 }, scope);
    expect(timed.message).toBe('Name?\n\n(90 s left to answer: then it is withdrawn, unanswered.)');
    expect(
      elicitationForQuestion({ question: 'Name?', timeoutMs: 4_500 }, scope).message,
    ).toContain('(4.5 s left to answer');
    expect(elicitationForQuestion({ question: 'Name?' }, scope).message).toBe('Name?');
    const several = elicitationForQuestions(
      {
        questions: [
          { id: 'name', question: 'Name?' },
          { id: 'colour', question: 'Colour?', options: [{ label: 'Red' }, { label: 'Blue' }] },
        ],
        timeoutMs: 3_600_000,
      },
      scope,
    );
    expect(several.message).toBe(
      `${QUESTIONS_FORM_WORDING.message(2)}\n\n(60 min left to answer: then it is withdrawn, unanswered.)`,
    );
  });

  it('makes a titled single choice with the recommended option as the default', () => {
    const params = elicitationForQuestion(DATABASE_QUESTION, scope);
    expect(params).toEqual({
      mode: 'form',
      sessionId: 'session-1',
      toolCallId: 'call-1',
      message: 'Which database?',
      requestedSchema: {
        type: 'object',
        title: 'Database',
        properties: {
          choice: {
            type: 'string',
            title: QUESTION_FORM_WORDING.choiceTitle,
            oneOf: [
              { const: 'pg', title: 'PostgreSQL', description: 'A shared server.' },
              { const: 'SQLite', title: 'SQLite' },
            ],
            default: 'SQLite',
          },
        },
        required: ['choice'],
      },
    });
  });

  it('has the typed-answer field by default, and not with allowCustom: false', () => {
    const options = [{ label: 'app' }, { label: 'web' }];
    const byDefault = elicitationForQuestion({ question: 'Name?', options }, scope);
    expect(Object.keys(byDefault.requestedSchema.properties)).toEqual([
      QUESTION_FORM_FIELDS.choice,
      QUESTION_FORM_FIELDS.text,
    ]);
    const refused = elicitationForQuestion(
      { question: 'Name?', options, allowCustom: false },
      scope,
    );
    expect(Object.keys(refused.requestedSchema.properties)).toEqual([QUESTION_FORM_FIELDS.choice]);
    // No recommended option: no default, so not required either (Zed would preselect the first).
    expect(refused.requestedSchema.required).toEqual([]);
  });

  it('requires a choice of options only when it has a default; without one it shows empty', () => {
    const options = [{ label: 'app' }, { label: 'web' }];
    const none = elicitationForQuestion({ question: 'Name?', options, allowCustom: false }, scope);
    expect(none.requestedSchema.properties.choice?.default).toBeUndefined();
    expect(none.requestedSchema.required).toEqual([]);
    // Submitted empty, it is INVALID_ANSWER: never an answer the person did not give.
    expect(() =>
      answerFromElicitation(
        { question: 'Name?', options, allowCustom: false },
        { action: 'accept', content: {} },
      ),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ANSWER' }));
    const recommended = elicitationForQuestion(
      {
        question: 'Name?',
        options: [{ label: 'app', recommended: true }, { label: 'web' }],
        allowCustom: false,
      },
      scope,
    );
    expect(recommended.requestedSchema.properties.choice?.default).toBe('app');
    expect(recommended.requestedSchema.required).toEqual([QUESTION_FORM_FIELDS.choice]);
  });

  it('adds an optional text field when custom answers are allowed, and requires neither', () => {
    const { requestedSchema } = elicitationForQuestion(
      { question: 'Name?', options: [{ label: 'app' }], allowCustom: true },
      scope,
    );
    expect(Object.keys(requestedSchema.properties)).toEqual([
      QUESTION_FORM_FIELDS.choice,
      QUESTION_FORM_FIELDS.text,
    ]);
    expect(requestedSchema.properties.text).toEqual({
      type: 'string',
      title: QUESTION_FORM_WORDING.customTitle,
      description: QUESTION_FORM_WORDING.customDescription,
      maxLength: REQUEST_LIMITS.answerLength,
    });
    expect(requestedSchema.properties.choice?.default).toBeUndefined();
    expect(requestedSchema.required).toEqual([]);
  });

  it('makes a required, non-empty text field for a question without options', () => {
    for (const request of [
      { question: 'Project name?' },
      { question: 'Project name?', options: [] },
    ]) {
      const { requestedSchema } = elicitationForQuestion({ ...request, allowCustom: false }, scope);
      expect(requestedSchema).toEqual({
        type: 'object',
        properties: {
          text: {
            type: 'string',
            title: QUESTION_FORM_WORDING.freeFormTitle,
            minLength: 1,
            maxLength: REQUEST_LIMITS.answerLength,
            pattern: '\\S',
          },
        },
        required: ['text'],
      });
    }
  });

  it('leaves out the form title without a header and the tool call without one', () => {
    const params = elicitationForQuestion(
      { question: 'Go?', options: [{ label: 'Yes' }] },
      { sessionId: 's' },
    );
    expect(params).not.toHaveProperty('toolCallId');
    expect(params.requestedSchema).not.toHaveProperty('title');
  });

  it('keeps every property a flat string', () => {
    const { requestedSchema } = elicitationForQuestion(
      { question: 'Q?', options: [{ label: 'A' }, { label: 'B' }], allowCustom: true },
      scope,
    );
    for (const property of Object.values(requestedSchema.properties)) {
      expect(property.type).toBe('string');
      expect(property).not.toHaveProperty('properties');
      expect(property).not.toHaveProperty('items');
    }
  });

  it('fails with ASK_FAILED for a scope without a session', () => {
    for (const bad of [{ sessionId: '' }, {}, null, { sessionId: 's', toolCallId: 3 }]) {
      let caught: unknown;
      try {
        elicitationForQuestion({ question: 'Q?' }, bad as never);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UserInteractionError);
      expect((caught as UserInteractionError).code).toBe('ASK_FAILED');
    }
  });
});
