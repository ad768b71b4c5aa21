import { createUserInteraction, type PendingQuestion } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import type { ConversationEntry, ConversationRecorder } from '../../src/loop/conversation-entry.js';
import { createAgent } from '../../src/loop/create-agent.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { collect, endOf } from '../support/harness.js';

/**
 * An agent that asks one question, recording into `entries` through `recorder`'s own flush
 * (and written); `asked` is what was recorded each time the UI got a question.
 */
function watchedAgent(recorder: Omit<ConversationRecorder, 'add'>) {
  const entries: ConversationEntry[] = [];
  const asked: string[][] = [];
  const interaction = createUserInteraction();
  interaction.registerProvider({
    id: 'watching',
    ask(question: PendingQuestion<unknown>) {
      asked.push(entries.map((entry) => entry.type));
      question.resolve({ answer: 'Ann' } as never);
    },
  } as never);
  const agent = createAgent({
    model: createScriptedModel({
      steps: [
        {
          text: 'Asking.',
          toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: { question: 'Name?' } }],
        },
        { text: 'Hi.' },
      ],
    }),
    interaction,
    recorder: { ...recorder, add: (entry) => void entries.push(entry) },
  });
  return { agent, entries, asked };
}

describe('a turn that stopped while something waited for the person', () => {
  it('is written as posed before the question is shown, and not made durable on its own', async () => {
    const flushedAt: number[] = [];
    const { agent, entries, asked } = watchedAgent({
      flush: async () => void flushedAt.push(entries.length),
    });
    endOf(await collect(agent.run('Hello.')));
    expect(asked).toEqual([['prompt', 'assistant', 'posed']]);
    expect(entries[2]).toEqual({ type: 'posed', toolCallId: 'q', kind: 'question' });
    // One flush for the answer, one for the turn's end: none for the posed question.
    expect(flushedAt).toEqual([4, 6]);
  });

  it('asks the model about a prompt, and shows a question, only once the recorder has written it', async () => {
    let release!: () => void;
    let held = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    const { agent, entries, asked } = watchedAgent({
      flush: async () => {},
      // A store still making the session's file: what was added is not written yet.
      written: () => (holding ? held : undefined),
    });
    const turn = collect(agent.run('Hello.'));
    await new Promise((resolve) => setImmediate(resolve));
    // The model was not asked: no assistant step came.
    expect(entries.map((entry) => entry.type)).toEqual(['prompt']);
    const writtenPrompt = release;
    held = new Promise<void>((resolve) => (release = resolve));
    writtenPrompt();
    await new Promise((resolve) => setImmediate(resolve));
    expect(entries.map((entry) => entry.type)).toEqual(['prompt', 'assistant', 'posed']);
    expect(asked).toEqual([]);
    holding = false;
    release();
    endOf(await turn);
    expect(asked).toEqual([['prompt', 'assistant', 'posed']]);
  });

  it('ends a turn cancelled while its prompt waits to be written, without waiting for the disk', async () => {
    const { agent, entries } = watchedAgent({
      flush: async () => {},
      // A store whose new file never gets made: a stalled disk.
      written: () => new Promise<void>(() => {}),
    });
    const controller = new AbortController();
    const turn = collect(agent.run('Hello.', { signal: controller.signal }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(entries.map((entry) => entry.type)).toEqual(['prompt']);
    controller.abort();
    expect(endOf(await turn).reason).toBe('cancelled');
    // The model was never asked.
    expect(entries.map((entry) => entry.type)).toEqual(['prompt', 'turn-end']);
  });
});
