import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { createAgent } from '../../src/loop/create-agent.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import type { StoredSession } from '../../src/session/stored-session.js';

// Agents on stored sessions (session-store-*.test.ts); apart from session-files.ts so that the
// isolated cost tests, which read session files, do not load the agent loop.

/** Asks a name, then a color, and greets with both. */

export const TWO_QUESTIONS: Script = {
  steps: [
    {
      text: 'Two questions.',
      toolCalls: [
        { id: 'name', name: 'ask_user_question', arguments: { question: 'Name?' } },
        {
          id: 'color',
          name: 'ask_user_question',
          arguments: { question: 'Color?', options: [{ label: 'Red' }, { label: 'Blue' }] },
        },
      ],
    },
    { text: 'Hello {{answer:name}} in {{answer:color}}.' },
  ],
};

/** An agent on the session, asking through scripted answers. */
export function agentOn(session: StoredSession, script: Script, answers: ScriptedAnswer[] = []) {
  const interaction = createUserInteraction();
  interaction.registerProvider(createScriptedProvider({ answers }));
  return createAgent({
    model: createScriptedModel(script),
    interaction,
    conversation: session.entries,
    recorder: session.recorder,
  });
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
