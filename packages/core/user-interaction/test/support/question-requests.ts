import { type AskUserQuestionRequest, REQUEST_LIMITS } from '../../src/index.js';

// Requests that both `validateRequest` and the tool's argument parser are tested with.

/** A question that gives every field a model can write (options with every option field). */
export const FULL_QUESTION = {
  question: 'Which database?',
  header: 'Database',
  options: [
    { label: 'PostgreSQL', value: 'postgres', description: 'Relational.', recommended: true },
    { label: 'SQLite' },
  ],
  allowCustom: true,
} as const satisfies AskUserQuestionRequest;

/**
 * Option lists a question must not have, each with the field its refusal names: refused alike by
 * `validateRequest` and by the tool's argument parser, whose option fields have the same names.
 */
export const INVALID_OPTIONS: readonly (readonly [
  name: string,
  options: unknown,
  field: string,
])[] = [
  ['options that are not an array', 'a,b', 'options'],
  ['an option that is a string', ['Yes'], 'options[0]'],
  ['an option without a label', [{ value: 'y' }], 'options[0].label'],
  ['a blank label', [{ label: 'A' }, { label: ' ' }], 'options[1].label'],
  ['a label of a zero-width space', [{ label: '\u200b' }], 'options[0].label'],
  [
    'an over-long label',
    [{ label: 'l'.repeat(REQUEST_LIMITS.labelLength + 1) }],
    'options[0].label',
  ],
  ['a blank value', [{ label: 'A', value: '' }], 'options[0].value'],
  [
    'an over-long value',
    [{ label: 'A', value: 'v'.repeat(REQUEST_LIMITS.valueLength + 1) }],
    'options[0].value',
  ],
  [
    'an over-long description',
    [{ label: 'A', description: 'd'.repeat(REQUEST_LIMITS.descriptionLength + 1) }],
    'options[0].description',
  ],
  [
    'a recommended flag that is not a boolean',
    [{ label: 'A', recommended: 'yes' }],
    'options[0].recommended',
  ],
  [
    'two labels that differ only in case and spaces',
    [{ label: 'Yes' }, { label: ' yes ' }],
    'options[1].label',
  ],
  [
    'two equal values',
    [
      { label: 'A', value: 'x' },
      { label: 'B', value: 'x' },
    ],
    'options[1].value',
  ],
  [
    'a value equal to another label used as value',
    [{ label: 'A' }, { label: 'B', value: 'A' }],
    'options[1].value',
  ],
  [
    'two recommended options',
    [
      { label: 'A', recommended: true },
      { label: 'B', recommended: true },
    ],
    'options[1].recommended',
  ],
  ['an unknown option field', [{ label: 'A', descripton: 'x' }], 'options[0].descripton'],
  [
    'an unknown option field in a long list',
    [
      ...Array.from({ length: 20 }, (_, i) => ({ label: `Option ${i}` })),
      { label: 'Z', recommend: true },
    ],
    'options[20].recommend',
  ],
];
