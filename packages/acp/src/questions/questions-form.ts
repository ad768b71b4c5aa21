import type { ChoiceSchemaOption } from './question-form.js';

/**
 * Ends the name of the typed-answer companion of a question in the form of several questions:
 * `database:custom`. A `:` is outside the alphabet of question ids, so the name can never be
 * another question's.
 */
export const CUSTOM_ANSWER_SUFFIX = ':custom';

/** The `_meta` key that tells clients a text field is the "Other" of another field. */
export const CUSTOM_ANSWER_META = '_askUserQuestionCustomAnswer';

/** The wording of the fields of the form of several questions. */
export const QUESTIONS_FORM_WORDING = {
  customTitle: 'Other',
  customDescription: 'Type your own answer instead of choosing one above (optional).',
  customNextToTicksDescription:
    'Type an answer of your own, next to the options you chose (optional).',
  /** The form's message without a header, for more than one question. */
  message: (count: number) => `Please answer these ${count} questions.`,
} as const;

/** A question with one choice: a titled single choice. */
export interface QuestionChoiceSchema {
  type: 'string';
  /** The question's header, else the question. */
  title: string;
  /** The question, when the header is the title. */
  description?: string;
  oneOf: ChoiceSchemaOption[];
  /** The recommended option's const. */
  default?: string;
}

/** A question with several choices: a titled multi-select. */
export interface QuestionMultiChoiceSchema {
  type: 'array';
  title: string;
  description?: string;
  items: { anyOf: ChoiceSchemaOption[] };
  /** 1 when the question takes no typed answer: something must be ticked. */
  minItems?: number;
  /** The recommended option's const. */
  default?: string[];
}

/** A question without options: a required text. */
export interface QuestionTextSchema {
  type: 'string';
  title: string;
  description?: string;
  minLength: 1;
  maxLength: number;
  pattern: string;
}

/** The typed answer next to a question's options, marked for clients that render it as "Other". */
export interface CustomAnswerSchema {
  type: 'string';
  title: string;
  description: string;
  maxLength: number;
  _meta: { [CUSTOM_ANSWER_META]: { questionId: string; isCustomAnswer: true } };
}

/** A property of the form of several questions. */
export type QuestionsFormProperty =
  | QuestionChoiceSchema
  | QuestionMultiChoiceSchema
  | QuestionTextSchema
  | CustomAnswerSchema;

/** The flat form schema of several questions: one property per question id, and companions. */
export interface QuestionsFormSchema {
  type: 'object';
  /** The header of the set. */
  title?: string;
  properties: Record<string, QuestionsFormProperty>;
  required: string[];
}

/** The `elicitation/create` params of several questions: one form, scoped to a session. */
export interface QuestionsElicitationRequest {
  mode: 'form';
  sessionId: string;
  toolCallId?: string;
  /** The header of the set; else the question, for one; else a request to answer them. */
  message: string;
  requestedSchema: QuestionsFormSchema;
}
