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
