import { getEventListeners } from 'node:events';
import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { errorOf } from '../support/error-of.js';
import { playKeySteps } from '../support/key-steps.js';
import { expectRestored, open, provider, terminal } from '../support/menu-terminal.js';
import { PLAN } from '../support/question-fixtures.js';

describe('several questions in the interactive menu', () => {
  it('Esc declines and Ctrl+C cancels every question at once, none answered', async () => {
    open();
    const declined = provider.askAll(PLAN);
    await terminal.waitFor('TypeScript');
    await playKeySteps(terminal, [
      [KEYS.enter, 'Question 2 of 3'],
      // An answer was given: Esc asks before it throws it away, and a second Esc declines.
      [KEYS.escape, 'Decline all 3 questions? The answer you gave is not sent. Esc again:'],
    ]);
    terminal.press('x');
    await vi.waitFor(async () => expect(await terminal.text()).not.toContain('Decline all'));
    expect(await terminal.text()).not.toMatch(/Name.*\n.*x/);
    terminal.press(KEYS.escape);
    await terminal.waitFor('Decline all 3 questions?');
    terminal.press(KEYS.escape);
    expect((await errorOf(declined)).code).toBe('ASK_DECLINED');
    await expectRestored(
      ['✖ Language · declined', '✖ Name · declined', '✖ Features · declined'].join('\n'),
    );
    terminal.dispose();
    open();
    const cancelled = provider.askAll(PLAN);
    await terminal.waitFor('TypeScript');
    terminal.press(KEYS.shiftTab);
    await terminal.waitFor('Review your answers');
    terminal.press(KEYS.ctrlC);
    expect((await errorOf(cancelled)).code).toBe('ASK_CANCELLED');
    expect(await terminal.text()).toBe(
      ['✖ Language · cancelled', '✖ Name · cancelled', '✖ Features · cancelled'].join('\n'),
    );
  });

  it('is withdrawn whole by the signal and by the time limit, and the terminal is restored', async () => {
    open();
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    const turn = new AbortController();
    const asking = interaction.askAll({ ...PLAN, signal: turn.signal });
    await terminal.waitFor('TypeScript');
    terminal.press(KEYS.enter);
    await terminal.waitFor('Question 2 of 3');
    turn.abort();
    expect((await errorOf(asking)).code).toBe('ASK_ABORTED');
    await expectRestored(
      ['⊘ Language · withdrawn', '⊘ Name · withdrawn', '⊘ Features · withdrawn'].join('\n'),
    );
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);

    terminal.dispose();
    open();
    const timed = createUserInteraction();
    timed.registerProvider(provider);
    expect((await errorOf(timed.askAll({ ...PLAN, timeoutMs: 30 }))).code).toBe('ASK_TIMEOUT');
    expect(await terminal.text()).toBe(
      [
        '⊘ Language · timed out, withdrawn',
        '⊘ Name · timed out, withdrawn',
        '⊘ Features · timed out, withdrawn',
      ].join('\n'),
    );
  });

  it('the end of input ends every question of the set', async () => {
    open();
    const asking = provider.askAll(PLAN);
    await terminal.waitFor('TypeScript');
    terminal.input.end();
    expect((await errorOf(asking)).code).toBe('INPUT_CLOSED');
    expect(await terminal.text()).toContain('⊘ Features · not answered: input closed');
  });

  it('waits its turn behind a question on screen, and the next waits for it', async () => {
    open();
    const first = provider.ask({ question: 'First?', options: [{ label: 'A' }] });
    const set = provider.askAll({ questions: [PLAN.questions[1] as never] });
    await terminal.waitFor('First?');
    terminal.press(KEYS.enter);
    await expect(first).resolves.toMatchObject({ answer: 'A' });
    // One question alone: no line of pages, no review.
    const screen = await terminal.waitFor('What should it be called?');
    expect(screen).not.toContain('Question 1 of 1');
    terminal.press('z', KEYS.enter);
    await expect(set).resolves.toMatchObject({ answers: [{ id: 'name', answers: ['z'] }] });
  });
});
