import {
  ITEM_FIELDS,
  OPTION_FIELDS,
  QUESTION_FIELDS,
  QUESTIONS_FIELDS,
  type QuestionFieldDefinition,
} from '../question-shape.js';

/** A string argument in the tool's JSON Schema. */
export interface StringSchema {
  readonly type: 'string';
  readonly description: string;
  readonly minLength?: number;
  readonly maxLength: number;
  readonly pattern?: string;
}

/** A boolean argument in the tool's JSON Schema. */
export interface BooleanSchema {
  readonly type: 'boolean';
  readonly description: string;
}

/** An object in the tool's JSON Schema, with exactly the given properties. */
export interface ObjectSchema<Properties> {
  readonly type: 'object';
  readonly properties: Properties;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

/** The properties of an object schema, named as the model writes them. */
export type PropertiesOf<Fields extends Record<string, QuestionFieldDefinition>> = {
  readonly [K in keyof Fields as Fields[K]['argument']]: Fields[K]['kind'] extends 'text'
    ? StringSchema
    : Fields[K]['kind'] extends 'boolean'
      ? BooleanSchema
      : Fields[K]['kind'] extends 'options'
        ? OptionsSchema
        : QuestionsSchema;
};

/** The `options` argument: an array of option objects. */
export interface OptionsSchema {
  readonly type: 'array';
  readonly description: string;
  readonly maxItems: number;
  readonly items: ObjectSchema<PropertiesOf<typeof OPTION_FIELDS>>;
}

/** The `questions` argument: an array of question objects, each with an `id`. */
export interface QuestionsSchema {
  readonly type: 'array';
  readonly description: string;
  readonly minItems: number;
  readonly maxItems: number;
  readonly items: ObjectSchema<PropertiesOf<typeof ITEM_FIELDS>>;
}

function fieldSchema(
  field: QuestionFieldDefinition,
): StringSchema | BooleanSchema | OptionsSchema | QuestionsSchema {
  switch (field.kind) {
    case 'text':
      return {
        type: 'string',
        description: field.description,
        ...(field.required === true && { minLength: 1 }),
        maxLength: field.maxLength,
        ...(field.pattern !== undefined && { pattern: field.pattern.source }),
      };
    case 'boolean':
      return { type: 'boolean', description: field.description };
    case 'options':
      return {
        type: 'array',
        description: field.description,
        maxItems: field.maxItems,
        items: objectSchema(OPTION_FIELDS),
      };
    case 'questions':
      return {
        type: 'array',
        description: field.description,
        minItems: field.minItems,
        maxItems: field.maxItems,
        items: objectSchema(ITEM_FIELDS),
      };
  }
}

/** The JSON Schema of an object whose properties are `fields`, named as the model writes them. */
export function objectSchema<Fields extends Record<string, QuestionFieldDefinition>>(
  fields: Fields,
): ObjectSchema<PropertiesOf<Fields>> {
  const definitions = Object.values(fields) as QuestionFieldDefinition[];
  return {
    type: 'object',
    properties: Object.fromEntries(
      definitions.map((field) => [field.argument, fieldSchema(field)]),
    ) as PropertiesOf<Fields>,
    required: definitions
      .filter((field) => field.kind === 'text' && field.required === true)
      .map((field) => field.argument),
    additionalProperties: false,
  };
}

/**
 * The arguments of the tool, as the model writes them: one question's fields, or `questions`.
 * Either shape is one object with both in its properties: several model APIs refuse a schema
 * whose top level is a `oneOf`, so the parser, not the schema, takes exactly one of the two.
 */
export const ASK_USER_QUESTION_ARGUMENT_FIELDS = {
  ...QUESTION_FIELDS,
  questions: QUESTIONS_FIELDS.questions,
} as const;

/**
 * The fields of one question that the top of a request of several does not take (with
 * `questions`, they go inside each question): the parser refuses them next to `questions`.
 */
export const SINGLE_QUESTION_ONLY_FIELDS = Object.keys(QUESTION_FIELDS).filter(
  (name) => !Object.hasOwn(QUESTIONS_FIELDS, name),
) as readonly (keyof typeof QUESTION_FIELDS)[];

/**
 * JSON Schema of the tool's arguments, as sent to the model: derived from `QUESTION_FIELDS` and
 * `QUESTIONS_FIELDS`. Nothing is required at the top: `question` and `questions` are alternatives.
 */
export const ASK_USER_QUESTION_PARAMETERS: ObjectSchema<
  PropertiesOf<typeof ASK_USER_QUESTION_ARGUMENT_FIELDS>
> = { ...objectSchema(ASK_USER_QUESTION_ARGUMENT_FIELDS), required: [] };
