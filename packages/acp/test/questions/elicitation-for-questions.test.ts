import {
  type AskUserQuestionsRequest,
  REQUEST_LIMITS,
  validateQuestionsRequest,
} from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { elicitationForQuestions } from '../../src/index.js';
import {
  customAnswerField,
  formSchemaForQuestions,
} from '../../src/questions/elicitation-for-questions.js';
import { CUSTOM_ANSWER_META } from '../../src/questions/questions-form.js';

const OPTIONS = [{ label: 'Red' }, { label: 'Blue', value: 'blue', description: 'Calm.' }];
const CHOICES = [
  { const: 'Red', title: 'Red' },
  { const: 'blue', title: 'Blue', description: 'Calm.' },
];

function schemaOf(questions: AskUserQuestionsRequest['questions'], header?: string) {
  const request = validateQuestionsRequest({ questions, ...(header !== undefined && { header }) });
  return formSchemaForQuestions(request);
}

describe('the form of several questions', () => {
  it('is one property per question, named by its id, titled by its header', () => {
    const schema = schemaOf(
      [
        {
          id: 'color',
          header: 'Color',
          question: 'Which color?',
          options: OPTIONS,
          allowCustom: false,
        },
        { id: 'name', question: 'Which name?' },
      ],
      'Setup',
    );
    expect(schema).toEqual({
      type: 'object',
      title: 'Setup',
      properties: {
        color: { type: 'string', title: 'Color', description: 'Which color?', oneOf: CHOICES },
        name: {
          type: 'string',
          title: 'Which name?',
          minLength: 1,
          maxLength: REQUEST_LIMITS.answerLength,
          pattern: '\\S',
        },
      },
      required: ['name'],
    });
  });

  it('requires a single choice only when it has a default: a client must not pick for the person', () => {
    const plain = schemaOf([{ id: 'c', question: 'C?', options: OPTIONS, allowCustom: false }]);
    expect(plain.required).toEqual([]);
    expect(plain.properties.c).not.toHaveProperty('default');
    const recommended = schemaOf([
      {
        id: 'c',
        question: 'C?',
        options: [{ label: 'Red' }, { label: 'Blue', value: 'blue', recommended: true }],
        allowCustom: false,
      },
    ]);
    expect(recommended.required).toEqual(['c']);
    expect(recommended.properties.c).toMatchObject({ default: 'blue' });
    // With a typed answer next to it, the choice may be left empty.
    const typed = schemaOf([
      {
        id: 'c',
        question: 'C?',
        options: [{ label: 'Red', recommended: true }, { label: 'Blue' }],
      },
    ]);
    expect(typed.required).toEqual([]);
    expect(typed.properties.c).toMatchObject({ default: 'Red' });
  });

  it('makes several choices an array of titled options, at least one unless text may be typed', () => {
    const only = schemaOf([
      { id: 'f', question: 'F?', options: OPTIONS, multiSelect: true, allowCustom: false },
    ]);
    expect(only.properties.f).toEqual({
      type: 'array',
      title: 'F?',
      items: { anyOf: CHOICES },
      minItems: 1,
    });
    expect(only.required).toEqual(['f']);
    const typed = schemaOf([
      {
        id: 'f',
        question: 'F?',
        options: [{ label: 'Red', recommended: true }, { label: 'Blue' }],
        multiSelect: true,
      },
    ]);
    expect(typed.properties.f).toEqual({
      type: 'array',
      title: 'F?',
      items: {
        anyOf: [
          { const: 'Red', title: 'Red' },
          { const: 'Blue', title: 'Blue' },
        ],
      },
      default: ['Red'],
    });
    expect(typed.required).toEqual([]);
  });

  it('puts a typed answer next to options in a companion marked as their "Other"', () => {
    const schema = schemaOf([{ id: 'c', question: 'C?', options: OPTIONS }]);
    expect(Object.keys(schema.properties)).toEqual(['c', 'c:custom']);
    expect(schema.properties['c:custom']).toEqual({
      type: 'string',
      title: 'Other',
      description: 'Type your own answer instead of choosing one above (optional).',
      maxLength: REQUEST_LIMITS.answerLength,
      _meta: { [CUSTOM_ANSWER_META]: { questionId: 'c', isCustomAnswer: true } },
    });
    expect(CUSTOM_ANSWER_META).toBe('_askUserQuestionCustomAnswer');
  });

  it('names companions so that no question id can be one: ids cannot hold ":"', () => {
    expect(customAnswerField('database')).toBe('database:custom');
    expect(() =>
      validateQuestionsRequest({ questions: [{ id: 'database:custom', question: 'Q?' }] }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', field: 'questions[0].id' }));
    // Ten questions whose ids look like companions' stems: every name stays distinct.
    const ids = ['a', 'a_custom', 'custom', 'a-custom', 'question_0', 'question_0_custom'];
    const schema = schemaOf(ids.map((id) => ({ id, question: `${id}?`, options: OPTIONS })));
    expect(Object.keys(schema.properties)).toHaveLength(ids.length * 2);
  });

  it('keeps an id such as __proto__ as a property, and stays flat', () => {
    const schema = schemaOf([{ id: '__proto__', question: 'Q?', options: OPTIONS }]);
    expect(Object.keys(schema.properties)).toEqual(['__proto__', '__proto__:custom']);
    for (const property of Object.values(schema.properties)) {
      expect(['string', 'array']).toContain(property.type);
      if (property.type === 'array') {
        for (const choice of property.items.anyOf) expect(typeof choice.const).toBe('string');
      }
    }
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it('is sent scoped to the session and the tool call, with a message that says what to do', () => {
    const two = validateQuestionsRequest({
      questions: [
        { id: 'a', question: 'A?' },
        { id: 'b', question: 'B?' },
      ],
    });
    expect(elicitationForQuestions(two, { sessionId: 's', toolCallId: 't' })).toMatchObject({
      mode: 'form',
      sessionId: 's',
      toolCallId: 't',
      message: 'Please answer these 2 questions.',
    });
    const one = validateQuestionsRequest({ questions: [{ id: 'a', question: 'A?' }] });
    expect(elicitationForQuestions(one, { sessionId: 's' })).toMatchObject({ message: 'A?' });
    expect(elicitationForQuestions(one, { sessionId: 's' })).not.toHaveProperty('toolCallId');
    const headed = validateQuestionsRequest({ ...two, header: 'Plan' });
    expect(elicitationForQuestions(headed, { sessionId: 's' }).message).toBe('Plan');
    expect(() => elicitationForQuestions(two, { sessionId: '' })).toThrow(
      expect.objectContaining({ code: 'ASK_FAILED' }),
    );
  });
});
