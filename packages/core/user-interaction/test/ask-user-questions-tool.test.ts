import { describe, expect, it } from 'vitest';
import {
  ASK_USER_QUESTION_PARAMETERS,
  createUserInteraction,
  describeAskUserQuestionTool,
  executeAskUserQuestion,
  parseAskUserQuestionArguments,
  REQUEST_LIMITS,
  UserInteractionError,
} from '../src/index.js';
import { ITEM_FIELDS, QUESTIONS_FIELDS } from '../src/question-shape.js';
import { createScriptedProvider, type ScriptedAnswer } from '../src/testing.js';
import { ASK_USER_QUESTION_TOOL_DESCRIPTION } from '../src/tool/ask-user-question-description.js';
import { isQuestionsRequest } from '../src/tool/parse-ask-user-question-arguments.js';
import { FEATURES_QUESTION } from './support/features-question.js';

// The parts of the plan that snake_case and camelCase spell alike.
const DATABASE = {
  id: 'database',
  question: 'Which database?',
  options: [{ label: 'PostgreSQL', value: 'postgres', recommended: true }, { label: 'SQLite' }],
};
const NAME = { id: 'name', question: 'What should it be called?', header: 'Name' };

const PLAN_ARGS = {
  header: 'Plan',
  questions: [
    { ...DATABASE, allow_custom: true },
    NAME,
    { ...FEATURES_QUESTION, multi_select: true },
  ],
};

function withAnswers(...answers: ScriptedAnswer[]) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers });
  interaction.registerProvider(provider);
  return { interaction, provider };
}

function fieldOf(args: unknown): { field: string | undefined; message: string } {
  try {
    parseAskUserQuestionArguments(args);
  } catch (error) {
    expect(error).toBeInstanceOf(UserInteractionError);
    expect((error as UserInteractionError).code).toBe('INVALID_REQUEST');
    const { field, message } = error as UserInteractionError;
    expect(message).toContain(`\`${field}\``);
    return { field, message };
  }
  throw new Error('expected the arguments to be refused');
}

describe('the schema of several questions', () => {
  it('is one object whose properties hold both shapes, derived from the one definition', () => {
    const schema = ASK_USER_QUESTION_PARAMETERS as unknown as Record<string, unknown>;
    // Several model APIs refuse a top-level oneOf: the parser takes exactly one shape instead.
    expect(schema.type).toBe('object');
    expect(schema).not.toHaveProperty('oneOf');
    expect(schema).not.toHaveProperty('anyOf');
    const { questions } = ASK_USER_QUESTION_PARAMETERS.properties;
    expect(questions).toMatchObject({
      type: 'array',
      description: QUESTIONS_FIELDS.questions.description,
      minItems: 1,
      maxItems: REQUEST_LIMITS.questions,
    });
    expect(Object.keys(questions.items.properties)).toEqual([
      'id',
      'question',
      'header',
      'options',
      'allow_custom',
      'multi_select',
    ]);
    for (const field of Object.values(ITEM_FIELDS)) {
      const property = (questions.items.properties as Record<string, object>)[field.argument];
      expect(property).toMatchObject({ description: field.description });
    }
    expect(questions.items.required).toEqual(['id', 'question']);
    expect(questions.items.properties.id).toMatchObject({
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]{1,64}$',
    });
    expect(questions.items.properties.options.items.required).toEqual(['label']);
  });
});

describe('parseAskUserQuestionArguments with questions', () => {
  it('turns snake_case arguments into a request of several questions', () => {
    const parsed = parseAskUserQuestionArguments(JSON.stringify(PLAN_ARGS));
    expect(isQuestionsRequest(parsed)).toBe(true);
    expect(parsed).toEqual({
      header: 'Plan',
      questions: [
        { ...DATABASE, allowCustom: true },
        NAME,
        { ...FEATURES_QUESTION, multiSelect: true },
      ],
    });
    expect(isQuestionsRequest(parseAskUserQuestionArguments({ question: 'Q?' }))).toBe(false);
  });

  it('treats null as absent, at the top and in each question', () => {
    expect(
      parseAskUserQuestionArguments({
        question: null,
        options: null,
        questions: [{ id: 'a', question: 'A?', header: null, multi_select: null }],
      }),
    ).toEqual({ questions: [{ id: 'a', question: 'A?' }] });
    expect(parseAskUserQuestionArguments({ question: 'Q?', questions: null })).toEqual({
      question: 'Q?',
    });
  });

  it.each([
    ['both shapes', { question: 'Q?', questions: [{ id: 'a', question: 'A?' }] }, 'question'],
    ['neither shape', { header: 'Plan' }, 'question'],
    ['options next to questions', { ...PLAN_ARGS, options: [{ label: 'A' }] }, 'options'],
    ['allow_custom next to questions', { ...PLAN_ARGS, allow_custom: false }, 'allow_custom'],
    ['questions as text', { questions: 'a, b' }, 'questions'],
    ['a question as text', { questions: ['Why?'] }, 'questions[0]'],
    [
      'an unknown argument in a question',
      { questions: [{ id: 'a', question: 'A?', multiSelect: true }] },
      'questions[0].multiSelect',
    ],
    [
      'multi_select as text',
      { questions: [{ id: 'a', question: 'A?', multi_select: 'yes' }] },
      'questions[0].multi_select',
    ],
    [
      'an option as text',
      { questions: [{ id: 'a', question: 'A?', options: [{ label: 'x' }, 'y'] }] },
      'questions[0].options[1]',
    ],
    [
      'a repeated id',
      {
        questions: [
          { id: 'a', question: 'A?' },
          { id: 'a', question: 'B?' },
        ],
      },
      'questions[1].id',
    ],
    [
      'a multi-select without options',
      { questions: [{ id: 'a', question: 'A?', multi_select: true }] },
      'questions[0].options',
    ],
    [
      'eleven questions',
      { questions: Array.from({ length: 11 }, (_, i) => ({ id: `q${i}`, question: 'Q?' })) },
      'questions',
    ],
  ])('refuses %s, naming the field as the model wrote it', (_name, args, field) => {
    expect(fieldOf(args).field).toBe(field);
  });

  it('says how to fix the shape', () => {
    expect(fieldOf({}).message).toContain('`questions`');
    expect(fieldOf({ question: 'Q?', questions: [] }).message).toContain(
      'cannot be given with `questions`',
    );
    expect(fieldOf({ ...PLAN_ARGS, options: [] }).message).toContain('inside each of `questions`');
  });
});

describe('executeAskUserQuestion with questions', () => {
  it('returns compact JSON keyed by id that tells chosen options from typed text', async () => {
    const { interaction, provider } = withAnswers({
      answers: {
        database: { custom: 'DuckDB' },
        name: { custom: 'my-app' },
        features: { labels: ['Tests', 'Authentication'], custom: 'metrics' },
      },
    });
    const controller = new AbortController();
    const result = await executeAskUserQuestion(PLAN_ARGS, {
      interaction,
      agent: { id: 'agent-1' },
      signal: controller.signal,
      timeoutMs: 60_000,
    });
    expect(result.ok).toBe(true);
    expect(result.output).toBe(
      '{"database":{"typed":"DuckDB"},"name":{"typed":"my-app"},"features":{"chosen":["auth","tests"],"typed":"metrics"}}',
    );
    expect(result).toMatchObject({ answers: { answers: [{ id: 'database' }, {}, {}] } });
    expect(provider.batches[0]).toMatchObject({ agent: { id: 'agent-1' }, timeoutMs: 60_000 });
  });

  it('keeps an id such as __proto__ as given', async () => {
    const { interaction } = withAnswers({ answers: { __proto__: { custom: 'x' } } as never });
    const result = await executeAskUserQuestion(
      { questions: [{ id: '__proto__', question: 'Q?' }] },
      { interaction },
    );
    expect(JSON.parse(result.output)).toEqual(JSON.parse('{"__proto__":{"typed":"x"}}'));
  });

  it('a set that fails is an error result that answers nothing', async () => {
    const { interaction } = withAnswers({ error: 'ASK_DECLINED' });
    const result = await executeAskUserQuestion(PLAN_ARGS, { interaction });
    expect(result).toMatchObject({ ok: false, error: { code: 'ASK_DECLINED' } });
    expect(JSON.parse(result.output)).toEqual({
      error: expect.objectContaining({ code: 'ASK_DECLINED' }),
    });
    expect(result).not.toHaveProperty('answers');
  });

  it('fails with UNSUPPORTED where the service cannot ask several questions', async () => {
    const result = await executeAskUserQuestion(PLAN_ARGS, {
      interaction: { ask: () => Promise.reject(new Error('not called')) },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED' } });
  });
});

describe('the description', () => {
  it('teaches when to batch, the result, and that a failed set answers nothing', () => {
    const text = ASK_USER_QUESTION_TOOL_DESCRIPTION;
    expect(text).toContain('questions');
    expect(text).toMatch(/do not depend on each other/);
    expect(text).toMatch(/ask alone a question whose answer decides what to ask next/);
    expect(text).toContain('multi_select');
    expect(text).toContain('"chosen"');
    expect(text).toContain('"typed"');
    expect(text).toMatch(/none of them was answered/);
  });

  it('tells the model when a UI shows one choice at a time', () => {
    const limited = describeAskUserQuestionTool({
      freeForm: true,
      customAnswer: true,
      multiSelect: false,
    });
    expect(limited).toContain('leave multi_select out');
    expect(describeAskUserQuestionTool(createUserInteraction().capabilities)).toBe(
      ASK_USER_QUESTION_TOOL_DESCRIPTION,
    );
  });
});
