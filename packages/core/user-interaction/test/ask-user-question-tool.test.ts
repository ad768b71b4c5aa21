import { describe, expect, it } from 'vitest';
import {
  ASK_USER_QUESTION_PARAMETERS,
  ASK_USER_QUESTION_TOOL_NAME,
  askUserQuestionTool,
  createUserInteraction,
  describeAskUserQuestionTool,
  executeAskUserQuestion,
  parseAskUserQuestionArguments,
  REQUEST_LIMITS,
  USER_INTERACTION_ERROR_CODES,
  type UserInteraction,
} from '../src/index.js';
import { QUESTION_FIELDS } from '../src/question-shape.js';
import { createScriptedProvider, type ScriptedAnswer } from '../src/testing.js';
import { ASK_USER_QUESTION_TOOL_DESCRIPTION } from '../src/tool/ask-user-question-description.js';
import { fieldOf } from './support/field-of.js';
import { FULL_QUESTION, INVALID_OPTIONS } from './support/question-requests.js';

function withAnswers(...answers: ScriptedAnswer[]) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers });
  interaction.registerProvider(provider);
  return { interaction, provider };
}

/** The field the parser names for refused arguments (see `fieldOf`). */
function argumentFieldOf(args: unknown): string | undefined {
  return fieldOf(args, parseAskUserQuestionArguments);
}

describe('the tool definition', () => {
  it('has a snake_case schema derived from the one definition of the question, which the parser reads', () => {
    expect(ASK_USER_QUESTION_TOOL_NAME).toBe('ask_user_question');
    // The names the model writes are public: a change here is a breaking change.
    expect(Object.keys(ASK_USER_QUESTION_PARAMETERS.properties)).toEqual([
      'question',
      'header',
      'options',
      'allow_custom',
      'questions',
    ]);
    expect(Object.keys(ASK_USER_QUESTION_PARAMETERS.properties.options.items.properties)).toEqual([
      'label',
      'value',
      'description',
      'recommended',
    ]);
    for (const [name, field] of Object.entries(QUESTION_FIELDS)) {
      const property = (ASK_USER_QUESTION_PARAMETERS.properties as Record<string, object>)[
        field.argument
      ];
      expect(property, name).toMatchObject({ description: field.description });
      if (field.kind === 'text') expect(property).toMatchObject({ maxLength: field.maxLength });
    }
    // `question` and `questions` are alternatives: the parser, not the schema, takes exactly one.
    expect(ASK_USER_QUESTION_PARAMETERS.required).toEqual([]);
    expect(ASK_USER_QUESTION_PARAMETERS.properties.options.items.required).toEqual(['label']);
    expect(ASK_USER_QUESTION_PARAMETERS.properties.options.maxItems).toBe(REQUEST_LIMITS.options);
    expect(askUserQuestionTool.parse).toBe(parseAskUserQuestionArguments);
    expect(askUserQuestionTool.execute).toBe(executeAskUserQuestion);
    expect(JSON.parse(JSON.stringify(ASK_USER_QUESTION_PARAMETERS))).toEqual(
      ASK_USER_QUESTION_PARAMETERS,
    );
  });

  it('tells the model how to word options', () => {
    const text = ASK_USER_QUESTION_TOOL_DESCRIPTION;
    expect(text).toMatch(/recommend/i);
    expect(text).toMatch(/first/);
    expect(text).toMatch(/Do not add an "Other"/);
    expect(text).toContain('allow_custom');
    // Every code the model can receive from this tool, with what to do next.
    for (const code of USER_INTERACTION_ERROR_CODES.filter((c) => c !== 'DUPLICATE_PROVIDER')) {
      expect(text).toMatch(new RegExp(`(^|\\s)${code}( or [A-Z_]+)?: `, 'm'));
    }
    expect(text).toMatch(/Never ask for passwords, API keys, tokens or other secrets/);
  });

  it('describes what a limited UI cannot show', () => {
    expect(describeAskUserQuestionTool({ freeForm: true, customAnswer: true })).toBe(
      ASK_USER_QUESTION_TOOL_DESCRIPTION,
    );
    const limited = describeAskUserQuestionTool({ freeForm: false, customAnswer: false });
    expect(limited).toContain('can only show questions with options');
    expect(limited).toContain('cannot take a typed answer');
  });

  it('tells the model to ask in its reply when the UI cannot show questions at all', () => {
    const none = describeAskUserQuestionTool({
      freeForm: false,
      customAnswer: false,
      questions: false,
    });
    expect(none).toContain('This UI cannot show questions: do not call this tool');
    expect(none).toContain("take the person's next message as the answer");
    // The limits of a UI that shows some questions do not apply: it shows none.
    expect(none).not.toContain('can only show questions with options');
    expect(
      describeAskUserQuestionTool({ freeForm: true, customAnswer: true, questions: true }),
    ).toBe(ASK_USER_QUESTION_TOOL_DESCRIPTION);
  });
});

describe('parseAskUserQuestionArguments', () => {
  it('turns snake_case arguments (object or JSON text) into a request', () => {
    const { allowCustom, ...rest } = FULL_QUESTION;
    const args = { ...rest, allow_custom: allowCustom };
    expect(parseAskUserQuestionArguments(args)).toEqual(FULL_QUESTION);
    expect(parseAskUserQuestionArguments(JSON.stringify(args))).toEqual(FULL_QUESTION);
  });

  it('treats null optional fields as absent', () => {
    expect(
      parseAskUserQuestionArguments({
        question: 'Name?',
        header: null,
        options: null,
        allow_custom: null,
      }),
    ).toEqual({ question: 'Name?' });
    expect(
      parseAskUserQuestionArguments({ question: 'Q?', options: [{ label: 'A', value: null }] }),
    ).toEqual({ question: 'Q?', options: [{ label: 'A' }] });
  });

  it.each([
    ['text that is not JSON', '{"question": ', 'arguments'],
    ['a JSON array', '[]', 'arguments'],
    ['no question', {}, 'question'],
    ['a blank question', { question: '  ' }, 'question'],
    ['camelCase allowCustom', { question: 'Q?', allowCustom: true }, 'allowCustom'],
    ['allow_custom as a string', { question: 'Q?', allow_custom: 'yes' }, 'allow_custom'],
  ])('rejects %s, naming the field', (_name, args, field) => {
    expect(argumentFieldOf(args)).toBe(field);
  });

  it.each(INVALID_OPTIONS)(
    'rejects %s, naming the field as the validator does',
    (_name, options, field) => {
      expect(argumentFieldOf({ question: 'Q?', options })).toBe(field);
    },
  );
});

describe('executeAskUserQuestion', () => {
  const args = {
    question: 'Which database?',
    options: [{ label: 'PostgreSQL', value: 'postgres', recommended: true }, { label: 'SQLite' }],
  };

  it('returns the answer text for the model, passing the agent and signal into the ask', async () => {
    const { interaction, provider } = withAnswers({ label: 'PostgreSQL' });
    const agent = { id: 'agent-1' };
    const controller = new AbortController();
    const result = await executeAskUserQuestion(args, {
      interaction,
      agent,
      signal: controller.signal,
      timeoutMs: 60_000,
    });
    expect(result).toEqual({
      ok: true,
      output: 'postgres',
      answer: { answer: 'postgres', option: args.options[0] },
    });
    expect(provider.requests[0]?.agent).toEqual(agent);
    expect(Object.isFrozen(provider.requests[0]?.agent)).toBe(true);
    expect(provider.requests[0]?.signal).toBeDefined();
    expect(provider.requests[0]?.timeoutMs).toBe(60_000);
  });

  it.each([['ASK_DECLINED'], ['ASK_CANCELLED'], ['INPUT_CLOSED'], ['UNSUPPORTED']] as const)(
    'shows %s to the model as an error result',
    async (code) => {
      const { interaction } = withAnswers({ error: code, message: `The person: ${code}.` });
      const result = await executeAskUserQuestion(args, { interaction });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toEqual({
        name: 'UserInteractionError',
        code,
        message: `The person: ${code}.`,
      });
      expect(JSON.parse(result.output)).toEqual({ error: result.error });
    },
  );

  it('lets the person type an answer unless allow_custom is false (the default is true)', async () => {
    const { interaction } = withAnswers({ custom: 'MySQL' }, { custom: 'MySQL' });
    expect(await executeAskUserQuestion(args, { interaction })).toMatchObject({
      ok: true,
      output: 'MySQL',
    });
    expect(
      await executeAskUserQuestion({ ...args, allow_custom: false }, { interaction }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_ANSWER' } });
    expect(ASK_USER_QUESTION_PARAMETERS.properties.allow_custom.description).toContain(
      'Default true',
    );
  });

  it('shows INVALID_REQUEST naming the field, without asking', async () => {
    const { interaction, provider } = withAnswers();
    const result = await executeAskUserQuestion(
      { question: 'Q?', options: [{ label: '' }] },
      {
        interaction,
      },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect(result.output).toContain('options[0].label');
    expect(provider.requests).toHaveLength(0);
  });

  it('shows NO_PROVIDER, ASK_ABORTED, INVALID_ANSWER and ASK_FAILED', async () => {
    const empty = createUserInteraction();
    expect(await executeAskUserQuestion(args, { interaction: empty })).toMatchObject({
      error: { code: 'NO_PROVIDER' },
    });
    const { interaction } = withAnswers({ custom: 'MySQL' });
    expect(
      await executeAskUserQuestion(args, { interaction, signal: AbortSignal.abort() }),
    ).toMatchObject({ error: { code: 'ASK_ABORTED' } });
    expect(
      await executeAskUserQuestion({ ...args, allow_custom: false }, { interaction }),
    ).toMatchObject({ error: { code: 'INVALID_ANSWER' } });
    const failing: UserInteraction = createUserInteraction();
    failing.registerProvider({
      ask: () => Promise.reject(new Error('disk full at /home/me/.secret')),
    });
    const failed = await executeAskUserQuestion(args, { interaction: failing });
    expect(failed).toMatchObject({ ok: false, error: { code: 'ASK_FAILED' } });
    expect(failed.output).not.toContain('.secret');
  });

  it('never throws, even when the service itself misbehaves', async () => {
    const broken = {
      ask(): Promise<never> {
        throw new Error('internal detail');
      },
    };
    const result = await executeAskUserQuestion(args, { interaction: broken });
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL_ERROR' } });
    expect(result.output).not.toContain('internal detail');
  });
});
