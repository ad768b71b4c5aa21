import { createAgent, createScriptedModel, type Script, type SessionStore } from 'dsh-agent';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';

/** Runs turns in a new session of `store` (in `cwd`), as an earlier run of the program did. */
export async function earlierRun(
  store: SessionStore,
  cwd: string,
  script: Script,
  turns: readonly { prompt: string; answers?: ScriptedAnswer[] }[],
): Promise<string> {
  const session = store.create({ cwd });
  const interaction = createUserInteraction();
  const provider = createScriptedProvider();
  interaction.registerProvider(provider);
  const agent = createAgent({
    model: createScriptedModel(script),
    interaction,
    recorder: session.recorder,
  });
  for (const { prompt, answers = [] } of turns) {
    provider.enqueue(...answers);
    for await (const _event of agent.run(prompt)) {
      // Played to its end.
    }
  }
  await session.close();
  return session.id;
}
