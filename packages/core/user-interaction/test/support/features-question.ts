/**
 * The multiple-choice question of the plans the tests ask, without its multi-select flag (each
 * test spells that as its input does: `multi_select` or `multiSelect`).
 */
export const FEATURES_QUESTION = {
  id: 'features',
  question: 'Which features?',
  options: [
    { label: 'Authentication', value: 'auth' },
    { label: 'Tests', value: 'tests' },
  ],
};
