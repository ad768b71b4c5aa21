/** The single-choice question the tests of `createUserInteraction` ask. */
export const choice = {
  question: 'Which database?',
  options: [{ label: 'PostgreSQL', recommended: true }, { label: 'SQLite' }],
};
