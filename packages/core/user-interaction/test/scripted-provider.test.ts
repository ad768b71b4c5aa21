import { describe, expect, it } from 'vitest';
import { createUserInteraction, isUserInteractionError } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';

const choice = {
  question: 'Which database?',
  options: [{ label: 'PostgreSQL', value: 'postgres', recommended: true }, { label: 'SQLite' }],
  allowCustom: true,
};

describe('createScriptedProvider', () => {
  it('answers in order by label, value, typed text and error code, and records requests', async () => {
    const provider = createScriptedProvider({ answers: [{ label: 'SQLite' }] }).enqueue(
      { value: 'postgres' },
      { custom: 'MySQL' },
      { error: 'ASK_DECLINED', message: 'Not now.' },
    );
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    expect(await interaction.ask(choice)).toEqual({ answer: 'SQLite', option: choice.options[1] });
    expect(await interaction.ask(choice)).toEqual({
      answer: 'postgres',
      option: choice.options[0],
    });
    expect(await interaction.ask(choice)).toEqual({ answer: 'MySQL' });
    const declined = await interaction.ask(choice).catch((error) => error);
    expect(isUserInteractionError(declined, 'ASK_DECLINED')).toBe(true);
    expect(declined.message).toBe('Not now.');
    expect(provider.requests.map((request) => request.question)).toEqual(
      Array(4).fill(choice.question),
    );
  });

  it('fails loudly when the script runs out or names no option', async () => {
    const provider = createScriptedProvider({ answers: [{ label: 'MySQL' }] });
    await expect(provider.ask(choice)).rejects.toThrow(/matches no option/);
    await expect(provider.ask(choice)).rejects.toThrow(/no reply queued/);
  });

  it('holds a question open until the test answers it', async () => {
    const provider = createScriptedProvider();
    const held = provider.hold();
    const pending = provider.ask(choice);
    const question = await held;
    expect(question.request.question).toBe(choice.question);
    expect(provider.pending).toBe(1);
    question.answer({ label: 'PostgreSQL' });
    await expect(pending).resolves.toEqual({ answer: 'postgres', option: choice.options[0] });
    expect(provider.pending).toBe(0);
    question.answer({ label: 'SQLite' });
    await expect(pending).resolves.toMatchObject({ answer: 'postgres' });
  });

  it('holds the question that reaches the hold, after the replies queued before it', async () => {
    const provider = createScriptedProvider().enqueue({ label: 'SQLite' });
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    const held = provider.hold();
    provider.enqueue({ custom: 'MySQL' });
    await expect(interaction.ask(choice)).resolves.toMatchObject({ answer: 'SQLite' });
    const asking = interaction.ask(choice);
    const question = await held;
    expect(question.request.question).toBe(choice.question);
    question.answer({ label: 'PostgreSQL' });
    await expect(asking).resolves.toMatchObject({ answer: 'postgres' });
    await expect(interaction.ask(choice)).resolves.toEqual({ answer: 'MySQL' });
  });

  it('rejects a held question when its signal aborts, unless told to ignore signals', async () => {
    const polite = createScriptedProvider();
    const controller = new AbortController();
    const held = polite.hold();
    const pending = polite.ask({ ...choice, signal: controller.signal });
    controller.abort('gone');
    await expect((await held).aborted).resolves.toBe('gone');
    await expect(pending).rejects.toMatchObject({ code: 'ASK_ABORTED' });

    const careless = createScriptedProvider({ ignoreSignal: true });
    const other = new AbortController();
    const heldCareless = careless.hold();
    const stillPending = careless.ask({ ...choice, signal: other.signal });
    other.abort();
    await (await heldCareless).aborted;
    expect(careless.pending).toBe(1);
    careless.dispose();
    await expect(stillPending).rejects.toMatchObject({ code: 'INPUT_CLOSED' });
  });

  it('dispose rejects every pending question with INPUT_CLOSED', async () => {
    const provider = createScriptedProvider();
    const first = provider.hold();
    const second = provider.hold();
    const a = provider.ask(choice);
    const b = provider.ask(choice);
    await Promise.all([first, second]);
    {
      using _provider = provider;
    }
    await expect(a).rejects.toMatchObject({ code: 'INPUT_CLOSED' });
    await expect(b).rejects.toMatchObject({ code: 'INPUT_CLOSED' });
    expect(provider.pending).toBe(0);
  });
});
