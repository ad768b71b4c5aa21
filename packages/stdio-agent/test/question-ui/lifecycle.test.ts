import {
  type AskUserQuestionRequest,
  createUserInteraction,
  UserInteractionError,
} from 'dsh-user-interaction';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { providerOnTerminal } from '../support/question-provider.js';

const FIRST: AskUserQuestionRequest = {
  header: 'First',
  question: 'Which one first?',
  options: [{ label: 'Alpha' }, { label: 'Beta' }],
};
const SECOND: AskUserQuestionRequest = {
  header: 'Second',
  question: 'Which one second?',
  options: [{ label: 'Gamma' }, { label: 'Delta' }],
};

let terminal: FakeTerminal;
let provider: ReadlineProvider;

function open(): void {
  ({ terminal, provider } = providerOnTerminal({ columns: 60, rows: 20, escapeCodeTimeout: 10 }));
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; cause?: unknown }> {
  return promise.then(
    () => {
      throw new Error('Expected the question to fail.');
    },
    (error: { code?: string }) => error,
  );
}

async function expectRestored(): Promise<void> {
  await terminal.flush();
  expect(terminal.cursorHidden()).toBe(false);
  expect(terminal.input.isRaw).toBe(false);
  expect(process.listenerCount('SIGTERM')).toBe(baseline.sigterm);
  expect(process.listenerCount('exit')).toBe(baseline.exit);
  for (const signal of OTHER_SIGNALS) {
    expect(process.listenerCount(signal)).toBe(baseline.others[signal]);
  }
}

const OTHER_SIGNALS = ['SIGINT', 'SIGHUP', 'SIGQUIT'] as const;
const baseline = {
  sigterm: process.listenerCount('SIGTERM'),
  exit: process.listenerCount('exit'),
  others: Object.fromEntries(
    OTHER_SIGNALS.map((signal) => [signal, process.listenerCount(signal)]),
  ),
};

afterEach(() => {
  provider?.dispose();
  terminal?.dispose();
});

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
