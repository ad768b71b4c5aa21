import { OPTION_FIELDS, QUESTION_FIELDS, type QuestionFieldDefinition } from '../question-shape.js';

/** A string argument in the tool's JSON Schema. */
export interface StringSchema {
  readonly type: 'string';
  readonly description: string;
  readonly minLength?: number;
  readonly maxLength: number;
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
      : OptionsSchema;
};

/** The `options` argument: an array of option objects. */
export interface OptionsSchema {
  readonly type: 'array';
  readonly description: string;
  readonly maxItems: number;
  readonly items: ObjectSchema<PropertiesOf<typeof OPTION_FIELDS>>;
}

function fieldSchema(field: QuestionFieldDefinition): StringSchema | BooleanSchema | OptionsSchema {
  switch (field.kind) {
    case 'text':
      return {
        type: 'string',
        description: field.description,
        ...(field.required === true && { minLength: 1 }),
        maxLength: field.maxLength,
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

/** JSON Schema of the tool's arguments, as sent to the model: derived from `QUESTION_FIELDS`. */
export const ASK_USER_QUESTION_PARAMETERS = objectSchema(QUESTION_FIELDS);
