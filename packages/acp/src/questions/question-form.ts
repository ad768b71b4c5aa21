/**
 * The property names of the form a question becomes. Clients and tests rely on them:
 * they are part of this package's public contract and change only in a major version.
 */
export const QUESTION_FORM_FIELDS = {
  /** The chosen option: a string whose value is one of the `oneOf` consts. */
  choice: 'choice',
  /** Typed text: the answer of a free-form question, or a custom answer that replaces the choice. */
  text: 'text',
} as const;

/** A property name of the question form. */
export type QuestionFormField = (typeof QUESTION_FORM_FIELDS)[keyof typeof QUESTION_FORM_FIELDS];

/** The titles and descriptions the form's fields carry. */
export const QUESTION_FORM_WORDING = {
  choiceTitle: 'Choose an answer',
  customTitle: 'Or type your own answer',
  customDescription: 'When filled, this replaces the choice above.',
  freeFormTitle: 'Your answer',
} as const;

/** One choice of the form: a titled enum option. */
export interface ChoiceSchemaOption {
  /** The option's value, else its label. */
  const: string;
  /** The option's label. */
  title: string;
  /** The option's description, when it has one. */
  description?: string;
}

/** The `choice` field: a titled single choice. */
export interface ChoiceFieldSchema {
  type: 'string';
  title: string;
  oneOf: ChoiceSchemaOption[];
  /** The recommended option's const, when the question recommends one. */
  default?: string;
}

/** The `text` field: typed text. */
export interface TextFieldSchema {
  type: 'string';
  title: string;
  description?: string;
  /** 1 when the text is the only answer (a free-form question). */
  minLength?: number;
  /** The longest answer the contract accepts (`REQUEST_LIMITS.answerLength`). */
  maxLength: number;
  /** `\S` when the text is the only answer: the editor itself refuses an answer of spaces. */
  pattern?: string;
}

/** The flat form schema of a question: at most a `choice` and a `text` field, both strings. */
export interface QuestionFormSchema {
  type: 'object';
  /** The question's header. */
  title?: string;
  properties: { choice?: ChoiceFieldSchema; text?: TextFieldSchema };
  required: QuestionFormField[];
}

/** The `elicitation/create` params of a question: form mode, scoped to a session. */
export interface QuestionElicitationRequest {
  mode: 'form';
  sessionId: string;
  toolCallId?: string;
  /** The question. */
  message: string;
  requestedSchema: QuestionFormSchema;
}
