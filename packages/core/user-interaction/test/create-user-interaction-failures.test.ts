import { describe, expect, it } from 'vitest';
import { createUserInteraction } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { codeOf } from './support/code-of.js';
import { choice } from './support/database-choice.js';

describe('ask', () => {
  it('passes the provider’s own UserInteractionError through', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(
      createScriptedProvider({
        answers: [{ error: 'ASK_DECLINED' }, { error: 'ASK_CANCELLED' }, { error: 'INPUT_CLOSED' }],
      }),
    );
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('ASK_DECLINED');
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('ASK_CANCELLED');
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('INPUT_CLOSED');
  });

  it('turns anything else a provider throws or rejects with into ASK_FAILED, keeping the cause', async () => {
    const interaction = createUserInteraction();
    const boom = new Error('EPIPE: the screen went away, token sk-123');
    let mode: 'throw' | 'reject' = 'throw';
    interaction.registerProvider({
      ask() {
        if (mode === 'throw') throw boom;
        return Promise.reject(boom);
      },
    });
    for (const next of ['throw', 'reject'] as const) {
      mode = next;
      const error = await interaction.ask(choice).catch((e) => e);
      expect(error.code).toBe('ASK_FAILED');
      expect(error.cause).toBe(boom);
      expect(error.message).not.toContain('sk-123');
    }
    const controller = new AbortController();
    const error = await interaction.ask({ ...choice, signal: controller.signal }).catch((e) => e);
    expect(error.code).toBe('ASK_FAILED');
  });

  it('rejects a UI answer that does not fit with INVALID_ANSWER', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(
      createScriptedProvider({
        answers: [
          { raw: { answer: '' } },
          { custom: 'MySQL' },
          { raw: { answer: 'MySQL', option: { label: 'MySQL' } } },
          { raw: undefined },
        ],
      }),
    );
    for (let i = 0; i < 4; i++) {
      await expect(codeOf(interaction.ask({ ...choice, allowCustom: false }))).resolves.toBe(
        'INVALID_ANSWER',
      );
    }
  });

  it('validates answers on the withdrawable path too', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ custom: 'MySQL' }] }));
    const controller = new AbortController();
    await expect(
      codeOf(interaction.ask({ ...choice, allowCustom: false, signal: controller.signal })),
    ).resolves.toBe('INVALID_ANSWER');
  });

  it('fails a free-form question with UNSUPPORTED when the UI cannot show one', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({
      capabilities: { freeForm: false, customAnswer: false },
      answers: [{ label: 'SQLite' }],
    });
    interaction.registerProvider(provider);
    await expect(codeOf(interaction.ask({ question: 'Name?' }))).resolves.toBe('UNSUPPORTED');
    expect(provider.requests).toHaveLength(0);
    await expect(interaction.ask(choice)).resolves.toMatchObject({ answer: 'SQLite' });
  });

  it('fails every question with UNSUPPORTED, saying to ask in the reply, when the UI shows none', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({
      capabilities: { freeForm: false, customAnswer: false, questions: false },
      answers: [{ label: 'SQLite' }],
    });
    interaction.registerProvider(provider);
    for (const asked of [
      interaction.ask(choice),
      interaction.ask({ question: 'Name?' }),
      interaction.askAll({ questions: [{ id: 'db', ...choice }] }),
    ]) {
      const error = await asked.catch((failure: unknown) => failure);
      expect(error).toMatchObject({ code: 'UNSUPPORTED' });
      expect((error as Error).message).toContain('ask the question in your reply text');
    }
    expect(provider.requests).toHaveLength(0);
  });

  it('keeps asking the same provider for questions already sent after its registration ends', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider();
    const dispose = interaction.registerProvider(provider);
    const held = provider.hold();
    const pending = interaction.ask(choice);
    const question = await held;
    dispose();
    question.answer({ label: 'SQLite' });
    await expect(pending).resolves.toMatchObject({ answer: 'SQLite' });
    await expect(codeOf(interaction.ask(choice))).resolves.toBe('NO_PROVIDER');
  });
});
