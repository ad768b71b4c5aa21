// A harness author's own UI provider: it answers every question with the recommended option,
// the way an unattended run might. Run it: `pnpm build && pnpm exec tsx examples/custom-provider.ts`.
import {
  answerForOption,
  createUserInteraction,
  executeAskUserQuestion,
  isUserInteractionError,
  recommendedOption,
  UserInteractionError,
  type UserInteractionProvider,
} from 'dsh-user-interaction';

const autopilot: UserInteractionProvider = {
  capabilities: { freeForm: false, customAnswer: false },
  async ask(request) {
    const option = recommendedOption(request);
    if (option === undefined) {
      throw new UserInteractionError(
        'Unattended: only recommended options are taken.',
        'ASK_DECLINED',
      );
    }
    return answerForOption(option);
  },
};

const interaction = createUserInteraction({ defaultTimeoutMs: 60_000 });
using _registration = interaction.registerProvider(autopilot);

const { answer, option } = await interaction.ask({
  question: 'Which database should the service use?',
  header: 'Database',
  options: [
    {
      label: 'PostgreSQL',
      value: 'postgres',
      recommended: true,
      description: 'Relational, robust.',
    },
    { label: 'SQLite', description: 'A single file, no server.' },
  ],
});
console.log(`answer: ${answer} (option "${option?.label}")`);

try {
  await interaction.ask({
    question: 'Which color scheme?',
    options: [{ label: 'Dark' }, { label: 'Light' }],
  });
} catch (error) {
  if (!isUserInteractionError(error, 'ASK_DECLINED')) throw error;
  console.log(`declined: ${error.message}`);
}

// What a model sees when it calls the tool.
const result = await executeAskUserQuestion(JSON.stringify({ question: 'Name of the project?' }), {
  interaction,
  agent: { id: 'example' },
});
console.log(`tool result for the model: ${result.output}`);
