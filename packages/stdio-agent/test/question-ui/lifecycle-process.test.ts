import { UserInteractionError } from 'dsh-user-interaction';
import { describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { errorOf } from '../support/error-of.js';
import {
  baseline,
  expectRestored,
  FIRST,
  OTHER_SIGNALS,
  open,
  SECOND,
} from '../support/lifecycle-questions.js';
import { provider, terminal } from '../support/menu-terminal.js';

describe('restoring the terminal when the process goes away', () => {
  it('restores the terminal on SIGTERM and settles the question', async () => {
    open();
    // Another listener stands for a host that handles SIGTERM itself: the provider then
    // only restores and does not raise the signal again.
    const host = vi.fn();
    process.on('SIGTERM', host);
    try {
      const first = provider.ask(FIRST);
      await terminal.waitFor('Alpha');
      expect(process.listenerCount('SIGTERM')).toBe(baseline.sigterm + 2);
      process.emit('SIGTERM');
      expect((await errorOf(first)).code).toBe('INPUT_CLOSED');
      expect(host).toHaveBeenCalledOnce();
      expect(await terminal.text()).toBe('⊘ First · not answered: interrupted');
      expect(terminal.cursorHidden()).toBe(false);
      expect(terminal.input.isRaw).toBe(false);
    } finally {
      process.removeListener('SIGTERM', host);
    }
    await expectRestored();
  });

  it('leaves SIGINT, SIGHUP and SIGQUIT to a host that handles them itself', async () => {
    open();
    const host = vi.fn();
    for (const signal of OTHER_SIGNALS) process.on(signal, host);
    try {
      const first = provider.ask(FIRST);
      await terminal.waitFor('Alpha');
      for (const signal of OTHER_SIGNALS) process.emit(signal, signal);
      expect(host).toHaveBeenCalledTimes(3);
      // Still on screen, still answerable: the host decides what the signals mean.
      expect(await terminal.text()).toContain('Alpha');
      expect(terminal.cursorHidden()).toBe(true);
      terminal.press(KEYS.enter);
      await expect(first).resolves.toMatchObject({ answer: 'Alpha' });
    } finally {
      for (const signal of OTHER_SIGNALS) process.removeListener(signal, host);
    }
    await expectRestored();
  });

  it('restores the terminal synchronously when the process exits with the question on screen', async () => {
    open();
    const before = process.listeners('exit');
    const first = provider.ask(FIRST).catch((error: unknown) => error);
    await terminal.waitFor('Alpha');
    const added = process.listeners('exit').filter((listener) => !before.includes(listener));
    expect(added).toHaveLength(1);
    (added[0] as (code: number) => void)(1);
    expect(terminal.input.isRaw).toBe(false);
    expect(await terminal.text()).toBe('⊘ First · not answered: interrupted');
    expect(terminal.cursorHidden()).toBe(false);
    provider.dispose();
    expect(await first).toMatchObject({ code: 'INPUT_CLOSED' });
    expect(await terminal.text()).toBe('⊘ First · not answered: interrupted');
    await expectRestored();
  });

  it('adds process listeners only while a question is on screen', async () => {
    open();
    expect(process.listenerCount('exit')).toBe(baseline.exit);
    const first = provider.ask(FIRST);
    await terminal.waitFor('Alpha');
    expect(process.listenerCount('exit')).toBe(baseline.exit + 1);
    expect(process.listenerCount('SIGTERM')).toBe(baseline.sigterm + 1);
    for (const signal of OTHER_SIGNALS) {
      expect(process.listenerCount(signal)).toBe((baseline.others[signal] ?? 0) + 1);
    }
    terminal.press(KEYS.enter);
    await first;
    await expectRestored();
  });

  it('gives the terminal back and fails with ASK_FAILED when drawing throws', async () => {
    open();
    const first = provider.ask(FIRST);
    await terminal.waitFor('Alpha');
    Object.defineProperty(terminal.output, 'columns', {
      get() {
        throw new Error('broken terminal');
      },
    });
    terminal.press(KEYS.down);
    const error = await errorOf(first);
    expect(error.code).toBe('ASK_FAILED');
    expect(error.cause).toBeInstanceOf(Error);
    expect(await terminal.text()).toBe('');
    await expectRestored();
  });

  it('fails with ASK_FAILED when the terminal cannot be taken, and leaves nothing behind', async () => {
    open();
    const listeners = () =>
      terminal.input.eventNames().map((name) => [name, terminal.input.listenerCount(name)]);
    const before = listeners();
    const setRawMode = terminal.input.setRawMode;
    terminal.input.setRawMode = () => {
      throw new Error('EIO: the terminal is gone');
    };
    const error = await errorOf(provider.ask(FIRST));
    expect(error.code).toBe('ASK_FAILED');
    expect(error.cause).toBeInstanceOf(Error);
    expect(terminal.writes).toBe(0);
    expect(listeners()).toEqual(before);
    await expectRestored();
    terminal.input.setRawMode = setRawMode;
    const next = provider.ask(SECOND);
    await terminal.waitFor('Gamma');
    terminal.press(KEYS.enter);
    expect((await next).answer).toBe('Gamma');
  });

  it('fails with ASK_FAILED and restores raw mode when the first frame cannot be written', async () => {
    open();
    const write = terminal.output.write.bind(terminal.output);
    let broken = true;
    terminal.output.write = ((chunk: string, ...rest: never[]) => {
      if (broken) {
        broken = false;
        throw new Error('EPIPE');
      }
      return write(chunk, ...rest);
    }) as typeof terminal.output.write;
    expect((await errorOf(provider.ask(FIRST))).code).toBe('ASK_FAILED');
    expect(terminal.input.isRaw).toBe(false);
    expect(process.listenerCount('exit')).toBe(baseline.exit);
  });

  it('rejects with a UserInteractionError for every outcome', async () => {
    open();
    const first = provider.ask(FIRST);
    await terminal.waitFor('Alpha');
    terminal.press(KEYS.ctrlC);
    expect(await errorOf(first)).toBeInstanceOf(UserInteractionError);
  });
});
