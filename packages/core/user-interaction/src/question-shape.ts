import type { AskUserQuestionOption, AskUserQuestionRequest } from './ask-user-question.js';
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
    }
  | { readonly kind: 'boolean'; readonly argument: string; readonly description: string }
  | {
      readonly kind: 'options';
      readonly argument: string;
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
