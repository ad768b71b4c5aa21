// Asks one question in the terminal and prints the answer. In a terminal it is a menu (arrows,
// number keys, type your own answer); piped, it reads one line: `printf '2\n' | pnpm exec tsx …`.
import { createReadlineProvider } from 'dsh-stdio-agent';
import { createUserInteraction, isUserInteractionError } from 'dsh-user-interaction';

const interaction = createUserInteraction();
using provider = createReadlineProvider();
using _registration = interaction.registerProvider(provider);

try {
  const { answer, option } = await interaction.ask({
    header: 'Database',
    question: 'Which database should the new service use?',
    options: [
      {
        label: 'PostgreSQL',
        value: 'postgres',
        recommended: true,
        description: 'Relational and robust; needs a server.',
      },
      { label: 'SQLite', value: 'sqlite', description: 'A single file, no server.' },
      { label: 'MySQL', value: 'mysql' },
    ],
    allowCustom: true,
  });
  console.log(`answer: ${answer}${option === undefined ? ' (typed)' : ''}`);
} catch (error) {
  if (!isUserInteractionError(error)) throw error;
  console.log(`not answered: ${error.code}`);
}
