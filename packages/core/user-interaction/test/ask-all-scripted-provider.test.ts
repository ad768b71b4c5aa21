import { describe, expect, it } from 'vitest';
import type { AskUserQuestionsRequest } from '../src/index.js';
import { createScriptedProvider, type HeldQuestion } from '../src/testing.js';
import { NAME } from './support/ask-all-plan.js';

describe('the scripted provider', () => {
  it('holds a set of questions open until the test answers it', async () => {
    const provider = createScriptedProvider();
    const held = provider.hold<AskUserQuestionsRequest>();
    const asking = provider.askAll({ questions: [NAME] });
    const question: HeldQuestion<AskUserQuestionsRequest> = await held;
    expect(question.request.questions[0]?.id).toBe('name');
    expect(provider.pending).toBe(1);
    question.answer({ answers: { name: { custom: 'my-app' } } });
    await expect(asking).resolves.toEqual({
      answers: [{ id: 'name', answers: ['my-app'], options: [], custom: 'my-app' }],
    });
    expect(provider.pending).toBe(0);
  });

  it('fails loudly for a reply of the wrong kind', async () => {
    const provider = createScriptedProvider({ answers: [{ custom: 'x' }, { answers: {} }] });
    await expect(provider.askAll({ questions: [NAME] })).rejects.toThrow(
      /needs a reply with `answers`/,
    );
    await expect(provider.ask({ question: 'Q?' })).rejects.toThrow(/for askAll, not ask/);
  });
});
