import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { errorOf } from '../support/error-of.js';
import { expectRestored, FIRST, open, SECOND } from '../support/lifecycle-questions.js';
import { provider, terminal } from '../support/menu-terminal.js';

describe('the queue', () => {
  it('shows questions one at a time, first in, first out', async () => {
    open();
    const first = provider.ask(FIRST);
    const second = provider.ask(SECOND);
    expect(provider.pending).toBe(2);
    await terminal.waitFor('Alpha');
    expect(await terminal.text()).not.toContain('Gamma');
    terminal.press(KEYS.enter);
    expect((await first).answer).toBe('Alpha');
    await terminal.waitFor('Gamma');
    terminal.press(KEYS.down, KEYS.enter);
    expect((await second).answer).toBe('Delta');
    expect(await terminal.text()).toBe('✔ First · Alpha\n✔ Second · Delta');
    expect(provider.pending).toBe(0);
  });

  it('removes an aborted queued question without disturbing the one on screen', async () => {
    open();
    const first = provider.ask(FIRST);
    const controller = new AbortController();
    const second = provider.ask({ ...SECOND, signal: controller.signal });
    const third = provider.ask({ question: 'Third?', options: [{ label: 'Epsilon' }] });
    const screen = await terminal.waitFor('Alpha');
    const writes = terminal.writes;
    controller.abort();
    const error = await errorOf(second);
    expect(error.code).toBe('ASK_ABORTED');
    expect(terminal.writes).toBe(writes);
    expect(await terminal.text()).toBe(screen);
    terminal.press(KEYS.enter);
    await first;
    await terminal.waitFor('Epsilon');
    terminal.press(KEYS.enter);
    expect((await third).answer).toBe('Epsilon');
  });
});

describe('withdrawing a question', () => {
  it('draws nothing for a signal aborted before the ask', async () => {
    open();
    const reason = new Error('too late');
    const error = await errorOf(provider.ask({ ...FIRST, signal: AbortSignal.abort(reason) }));
    expect(error).toMatchObject({ code: 'ASK_ABORTED', cause: reason });
    expect(terminal.writes).toBe(0);
    expect(terminal.rawModes).toEqual([]);
  });

  it('collapses the menu to a line saying it was withdrawn, and rejects with ASK_ABORTED', async () => {
    open();
    const controller = new AbortController();
    const first = provider.ask({ ...FIRST, signal: controller.signal });
    const second = provider.ask(SECOND);
    await terminal.waitFor('Alpha');
    const reason = new Error('the agent moved on');
    controller.abort(reason);
    expect(await errorOf(first)).toMatchObject({ code: 'ASK_ABORTED', cause: reason });
    await terminal.waitFor('Gamma');
    expect((await terminal.text()).startsWith('⊘ First · withdrawn\n? Second')).toBe(true);
    terminal.press(KEYS.enter);
    expect((await second).answer).toBe('Gamma');
    await expectRestored();
  });

  it('says it timed out when the service’s time limit withdraws it', async () => {
    open();
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    const error = await errorOf(interaction.ask({ ...FIRST, timeoutMs: 30 }));
    expect(error.code).toBe('ASK_TIMEOUT');
    await vi.waitFor(async () =>
      expect(await terminal.text()).toBe('⊘ First · timed out, withdrawn'),
    );
    await expectRestored();
    expect(provider.pending).toBe(0);
  });

  it('works behind the service: the answer comes back validated', async () => {
    open();
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    const answer = interaction.ask({ ...FIRST, allowCustom: true });
    await terminal.waitFor('Alpha');
    terminal.press(...'Zeta', KEYS.enter);
    expect(await answer).toEqual({ answer: 'Zeta' });
  });
});
