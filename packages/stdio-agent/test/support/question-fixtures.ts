import type {
  AskUserQuestionOption,
  AskUserQuestionRequest,
  AskUserQuestionsRequest,
} from 'dsh-user-interaction';

/** One choice among three options with values, the first recommended, no typed answer. */
export const DATABASE: AskUserQuestionRequest = {
  header: 'Database',
  question: 'Which database should we use?',
  options: [
    {
      label: 'Postgres',
      value: 'postgres',
      description: 'Robust; needs a server.',
      recommended: true,
    },
    { label: 'SQLite', value: 'sqlite', description: 'One file, no server.' },
    { label: 'MySQL', value: 'mysql' },
  ],
  allowCustom: false,
};

/** Three questions at once: a choice, a typed name, several choices. */
export const PLAN: AskUserQuestionsRequest = {
  header: 'New service',
  questions: [
    {
      id: 'language',
      header: 'Language',
      question: 'Which language?',
      allowCustom: false,
      options: [
        { label: 'TypeScript', recommended: true, description: 'Typed JavaScript.' },
        { label: 'Go' },
      ],
    },
    { id: 'name', header: 'Name', question: 'What should it be called?' },
    {
      id: 'features',
      header: 'Features',
      question: 'Which features?',
      multiSelect: true,
      options: [{ label: 'Auth', value: 'auth' }, { label: 'Tests' }, { label: 'Docs' }],
    },
  ],
};

/** An option as it is, but for its description. */
export function withoutDescription({
  description: _description,
  ...option
}: AskUserQuestionOption): AskUserQuestionOption {
  return option;
}
