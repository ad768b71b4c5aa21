import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { errorOf } from '../support/error-of.js';
import { expectRestored, FIRST, open, SECOND } from '../support/lifecycle-questions.js';
import { provider, terminal } from '../support/menu-terminal.js';

describe('the end of input and disposal', () => {
  it('rejects the active, the queued and every later question with INPUT_CLOSED at end of input', async () => {
    open();
    const first = provider.ask(FIRST);
    const second = provider.ask(SECOND);
    await terminal.waitFor('Alpha');
    terminal.input.end();
    expect((await errorOf(first)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(second)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(provider.ask(FIRST))).code).toBe('INPUT_CLOSED');
    expect(await terminal.text()).toBe('⊘ First · not answered: input closed');
    await expectRestored();
  });

  it('treats an input error as the end of input', async () => {
    open();
    const first = provider.ask(FIRST);
    await terminal.waitFor('Alpha');
    const failure = new Error('EIO');
    terminal.input.emit('error', failure);
    expect(await errorOf(first)).toMatchObject({ code: 'INPUT_CLOSED', cause: failure });
    await expectRestored();
  });

  it('rejects everything pending with INPUT_CLOSED on dispose, and restores the terminal', async () => {
    open();
    const first = provider.ask(FIRST);
    const second = provider.ask(SECOND);
    await terminal.waitFor('Alpha');
    provider[Symbol.dispose]();
    provider.dispose();
    expect((await errorOf(first)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(second)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(provider.ask(FIRST))).code).toBe('INPUT_CLOSED');
    expect(await terminal.text()).toBe('⊘ First · not answered: closed');
    expect(terminal.rawModes).toEqual([true, false]);
    await expectRestored();
  });

  it('leaves the input paused as it found it, so an idle program can exit', async () => {
    open();
    expect(terminal.input.readableFlowing).toBe(null);
    const first = provider.ask(FIRST);
    await terminal.waitFor('Alpha');
    expect(terminal.input.readableFlowing).toBe(true);
    terminal.press(KEYS.enter);
    await first;
    expect(terminal.input.readableFlowing).toBe(false);
  });
});
