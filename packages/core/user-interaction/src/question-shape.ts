import type { AskUserQuestionOption, AskUserQuestionRequest } from './ask-user-question.js';
import type { AskUserQuestionItem, AskUserQuestionsRequest } from './ask-user-questions.js';
import { REQUEST_LIMITS } from './request-limits.js';

/** A field a model writes: its argument name (snake_case), what it holds, and what it means. */
export type QuestionFieldDefinition =
  | {
      readonly kind: 'text';
      /** The name in the tool's arguments. */
      readonly argument: string;
      readonly required?: true;
      /** In UTF-16 code units. */
      readonly maxLength: number;
      /** What the model reads about it in the tool's schema. */
      readonly description: string;
      /** A pattern the whole text must match, and what a text that does not is told. */
      readonly pattern?: { readonly source: string; readonly problem: string };
    }
  | { readonly kind: 'boolean'; readonly argument: string; readonly description: string }
  | {
      readonly kind: 'options';
      readonly argument: string;
      readonly maxItems: number;
      readonly description: string;
    }
  | {
      /** The questions of `askAll`, each an object of `ITEM_FIELDS`. */
      readonly kind: 'questions';
      readonly argument: string;
      readonly minItems: number;
      readonly maxItems: number;
      readonly description: string;
    };

/**
 * The fields of an option, by their name in `AskUserQuestionOption`: the one definition that
 * the tool's schema, its parser and `validateRequest` all read. `satisfies` keeps it in step
 * with the type: a field added to one and not the other does not compile.
 */
export const OPTION_FIELDS = {
  label: {
    kind: 'text',
    argument: 'label',
    required: true,
    maxLength: REQUEST_LIMITS.labelLength,
    description: 'What the person sees: one to five words, unique within the question.',
  },
  value: {
    kind: 'text',
    argument: 'value',
    maxLength: REQUEST_LIMITS.valueLength,
    description: 'What you receive when this option is chosen; defaults to the label.',
  },
  description: {
    kind: 'text',
    argument: 'description',
    maxLength: REQUEST_LIMITS.descriptionLength,
    description: 'One sentence on the trade-off, when it is not obvious from the label.',
  },
  recommended: {
    kind: 'boolean',
    argument: 'recommended',
    description: 'Marks the option you recommend (at most one).',
  },
} as const satisfies { readonly [K in keyof AskUserQuestionOption]-?: QuestionFieldDefinition };

/** The fields of a question that its caller adds: never written by a model. */
const CALLER_FIELDS = { signal: true, agent: true, timeoutMs: true } as const satisfies Partial<
  Record<keyof AskUserQuestionRequest, true>
>;

type CallerField = keyof typeof CALLER_FIELDS;

/**
 * The fields of a question that a model writes, by their name in `AskUserQuestionRequest`:
 * with `CALLER_FIELDS`, every field of the type, each once (checked when it compiles).
 */
export const QUESTION_FIELDS = {
  question: {
    kind: 'text',
    argument: 'question',
    required: true,
    maxLength: REQUEST_LIMITS.questionLength,
    description: 'The complete question, as one sentence ending with a question mark.',
  },
  header: {
    kind: 'text',
    argument: 'header',
    maxLength: REQUEST_LIMITS.headerLength,
    description: 'A very short label shown above the question (one to three words).',
  },
  options: {
    kind: 'options',
    argument: 'options',
    maxItems: REQUEST_LIMITS.options,
    description: 'The choices, recommended one first. Leave out for an open question.',
  },
  allowCustom: {
    kind: 'boolean',
    argument: 'allow_custom',
    description:
      'Whether the person may type their own answer instead of choosing an option. Default true; false when only the options can be used.',
  },
} as const satisfies {
  readonly [K in Exclude<keyof AskUserQuestionRequest, CallerField>]-?: QuestionFieldDefinition;
};

/**
 * The fields of one question of several (`AskUserQuestionItem`): the question's own fields,
 * with an `id` first and `multiSelect` last. Each rule of a question applies to each item.
 */
export const ITEM_FIELDS = {
  id: {
    kind: 'text',
    argument: 'id',
    required: true,
    maxLength: REQUEST_LIMITS.idLength,
    description:
      'A short name for the question, unique among the questions, such as "database": the answers are keyed by it.',
    pattern: {
      source: `^[A-Za-z0-9_-]{1,${REQUEST_LIMITS.idLength}}$`,
      problem: `must be 1 to ${REQUEST_LIMITS.idLength} letters, digits, \`_\` or \`-\``,
    },
  },
  ...QUESTION_FIELDS,
  multiSelect: {
    kind: 'boolean',
    argument: 'multi_select',
    description:
      'Whether the person may choose several options (default false). Needs options; a typed answer, when allowed, comes in addition to them.',
  },
} as const satisfies { readonly [K in keyof AskUserQuestionItem]-?: QuestionFieldDefinition };

/** The fields of a request of several questions that a model writes (`AskUserQuestionsRequest`). */
export const QUESTIONS_FIELDS = {
  questions: {
    kind: 'questions',
    argument: 'questions',
    minItems: 1,
    maxItems: REQUEST_LIMITS.questions,
    description: `Several questions asked at once, shown together and answered in one go (1 to ${REQUEST_LIMITS.questions}). Give either this or \`question\`, never both; with it, \`header\` labels the whole set, and \`options\` and \`allow_custom\` go inside each question.`,
  },
  header: QUESTION_FIELDS.header,
} as const satisfies {
  readonly [K in Exclude<keyof AskUserQuestionsRequest, CallerField>]-?: QuestionFieldDefinition;
};

/** Every field of a question, in the order a request is read (the signal first: an aborted one wins). */
export const REQUEST_FIELD_NAMES: readonly (keyof AskUserQuestionRequest)[] = Object.freeze([
  'signal',
  ...(Object.keys(QUESTION_FIELDS) as (keyof typeof QUESTION_FIELDS)[]),
  ...(Object.keys(CALLER_FIELDS) as CallerField[]).filter((name) => name !== 'signal'),
]);

/** Every field of an option. */
export const OPTION_FIELD_NAMES = Object.freeze(
  Object.keys(OPTION_FIELDS) as (keyof typeof OPTION_FIELDS)[],
);

/** Every field of a question of several, in the order it is read. */
export const ITEM_FIELD_NAMES = Object.freeze(
  Object.keys(ITEM_FIELDS) as (keyof typeof ITEM_FIELDS)[],
);

/** Every field of a request of several questions, in the order it is read (the signal first). */
export const QUESTIONS_REQUEST_FIELD_NAMES: readonly (keyof AskUserQuestionsRequest)[] =
  Object.freeze([
    'signal',
    ...(Object.keys(QUESTIONS_FIELDS) as (keyof typeof QUESTIONS_FIELDS)[]),
    ...(Object.keys(CALLER_FIELDS) as CallerField[]).filter((name) => name !== 'signal'),
  ]);
