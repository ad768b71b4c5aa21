// Asks three questions at once in the terminal and prints every answer. In a terminal it is one
// screen (a page per question, Tab between them, Space ticks, a review that Enter submits);
// piped, it reads a line per question: `printf '2\n1,3 =logs\nharbor\n' | pnpm exec tsx …`.
import { createReadlineProvider } from 'dsh-stdio-agent';
import { createUserInteraction, isUserInteractionError } from 'dsh-user-interaction';

const interaction = createUserInteraction();
using provider = createReadlineProvider();
using _registration = interaction.registerProvider(provider);

try {
  const { answers } = await interaction.askAll({
    header: 'New service',
    questions: [
      {
        id: 'database',
        header: 'Database',
        question: 'Which database should the new service use?',
        options: [
          { label: 'PostgreSQL', value: 'postgres', recommended: true },
          { label: 'SQLite', value: 'sqlite', description: 'A single file, no server.' },
        ],
      },
      {
        id: 'features',
        header: 'Features',
        question: 'Which features should it start with?',
        options: [
          { label: 'Authentication', value: 'auth' },
          { label: 'Tests', value: 'tests' },
          { label: 'Metrics', value: 'metrics' },
        ],
        multiSelect: true,
      },
      { id: 'name', header: 'Name', question: 'What should it be called?' },
    ],
  });
  for (const { id, options, custom } of answers) {
    const parts = options.map((option) => option.label);
    if (custom !== undefined) parts.push(`"${custom}" (typed)`);
    console.log(`${id}: ${parts.join(', ')}`);
  }
} catch (error) {
  if (!isUserInteractionError(error)) throw error;
  console.log(`not answered: ${error.code}`);
}
