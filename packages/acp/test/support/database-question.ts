/** The single choice the form tests ask: a header, a value, a description, a recommendation. */
export const DATABASE_QUESTION = {
  question: 'Which database?',
  header: 'Database',
  options: [
    { label: 'PostgreSQL', value: 'pg', description: 'A shared server.' },
    { label: 'SQLite', recommended: true },
  ],
  allowCustom: false,
};
