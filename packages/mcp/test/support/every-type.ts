import type { ScriptedAnswer } from 'dsh-user-interaction/testing';

/** A flat form of every field type MCP elicitation allows, as the spec's schema lists them. */
export const EVERY_TYPE = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 20 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date', default: '2026-12-24' },
    at: { type: 'string', format: 'date-time' },
    price: { type: 'number', minimum: 0 },
    seats: { type: 'integer', minimum: 1, maximum: 9 },
    urgent: { type: 'boolean', default: false },
    color: { type: 'string', enum: ['red', 'green'] },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
  },
  required: ['name', 'email', 'seats', 'color', 'size'],
};

/** The two list fields MCP elicitation allows: titled choices (one or two of three), plain ones. */
export const EVERY_LIST_TYPE = {
  type: 'object',
  properties: {
    tags: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'Alpha' },
          { const: 'b', title: 'Beta' },
          { const: 'c', title: 'Gamma' },
        ],
      },
      minItems: 1,
      maxItems: 2,
    },
    plain: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
  },
};

/** The answers, one per field of `EVERY_TYPE` in order, that a person gives to fill it in. */
export const EVERY_TYPE_ANSWER: ScriptedAnswer = {
  answers: {
    f0: { custom: 'Ada' },
    f1: { custom: 'ada@example.com' },
    f2: { custom: 'https://example.com/a' },
    f3: { label: 'Use the default: 2026-12-24' },
    f4: { custom: '2026-12-07T10:00:00Z' },
    f5: { custom: '12.5' },
    f6: { custom: '3' },
    f7: { label: 'Yes' },
    f8: { label: 'green' },
    f9: { label: 'Large' },
  },
};

/** The typed values the server gets for `EVERY_TYPE_ANSWER`. */
export const EVERY_TYPE_CONTENT = {
  name: 'Ada',
  email: 'ada@example.com',
  site: 'https://example.com/a',
  day: '2026-12-24',
  at: '2026-12-07T10:00:00Z',
  price: 12.5,
  seats: 3,
  urgent: true,
  color: 'green',
  size: 'l',
};
