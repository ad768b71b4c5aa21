import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { providerOnTerminal } from '../support/question-provider.js';

const QUESTION: AskUserQuestionRequest = {
  header: 'Database',
  question: 'Which database?',
  options: [{ label: 'Alpha' }, { label: 'Beta' }],
};

let terminal: FakeTerminal;
let provider: ReadlineProvider;
const baseline = {
  stop: process.listenerCount('SIGTSTP'),
  cont: process.listenerCount('SIGCONT'),
  exit: process.listenerCount('exit'),
};

afterEach(() => {
  vi.restoreAllMocks();
  provider?.dispose();
  terminal?.dispose();
});

/**
 * Stands in for the kernel: a SIGTSTP the process sends itself (or its process group, pid 0)
 * reaches its listeners, and with none left it "stops" the process (recorded, with whom the
 * signal was sent to) instead of stopping the test run.
 */
function fakeKill(): { stops: number; stopped: number[] } {
  const seen = { stops: 0, stopped: [] as number[] };
  vi.spyOn(process, 'kill').mockImplementation((pid, signal) => {
    expect([process.pid, 0]).toContain(pid);
    expect(signal).toBe('SIGTSTP');
    if (process.listenerCount('SIGTSTP') > 0) process.emit('SIGTSTP', 'SIGTSTP');
    else {
      seen.stops++;
      seen.stopped.push(pid);
    }
    return true;
  });
  return seen;
}

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => 'answered',
    (error: { code?: string }) => error.code,
  );
}

/** Makes every later write to the terminal fail, as a socket whose reader left reports EPIPE. */
function failWrites(terminal: FakeTerminal): void {
  const failing = terminal.output as unknown as { _write: (...args: unknown[]) => void };
  failing._write = (_chunk, _encoding, callback) => {
    const error = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    (callback as (error: Error) => void)(error);
  };
}

describe('a failing output', () => {
  it('settles the question with ASK_FAILED and gives the terminal back (EPIPE on a redraw)', async () => {
    ({ terminal, provider } = providerOnTerminal({ columns: 60, rows: 20 }));
    const asked = provider.ask(QUESTION);
    await terminal.waitFor('Alpha');
    // The reader went away: the next write fails, as a socket reports EPIPE, later.
    failWrites(terminal);
    terminal.press(KEYS.down);
    expect(await errorCode(asked)).toBe('ASK_FAILED');
    expect(terminal.input.isRaw).toBe(false);
    expect(terminal.output.listenerCount('error')).toBe(0);
    expect(process.listenerCount('exit')).toBe(baseline.exit);
    expect(process.listenerCount('SIGTSTP')).toBe(baseline.stop);
  });
});

describe('a failing output, after the answer', () => {
  it('keeps the answer, and handles the failure of the last frame reported after it (EPIPE)', async () => {
    ({ terminal, provider } = providerOnTerminal({ columns: 60, rows: 20 }));
    const asked = provider.ask(QUESTION);
    await terminal.waitFor('Alpha');
    failWrites(terminal);
    terminal.press(KEYS.enter);
    expect(await asked).toMatchObject({ answer: 'Alpha' });
    expect(terminal.input.isRaw).toBe(false);
    await vi.waitFor(() => expect(terminal.output.listenerCount('error')).toBe(0));
  });
});

describe('suspend and resume (SIGTSTP, SIGCONT)', () => {
  it('gives the terminal back before stopping, then takes it again and redraws', async () => {
    ({ terminal, provider } = providerOnTerminal({ columns: 60, rows: 20 }));
    const seen = fakeKill();
    const asked = provider.ask(QUESTION);
    await terminal.waitFor('❯ 1. Alpha');
    expect(terminal.cursorHidden()).toBe(true);

    process.emit('SIGTSTP', 'SIGTSTP');
    expect(seen.stops).toBe(1);
    expect(terminal.input.isRaw).toBe(false);
    await terminal.flush();
    expect(terminal.cursorHidden()).toBe(false);
    expect(terminal.written.endsWith('\u001b[?2004l\u001b[?25h')).toBe(true);
    // The question leaves the screen to the shell while the program is stopped.
    expect(await terminal.text()).not.toContain('Alpha');
    expect(process.listenerCount('SIGTSTP')).toBe(baseline.stop);

    process.emit('SIGCONT', 'SIGCONT');
    expect(terminal.input.isRaw).toBe(true);
    await terminal.waitFor('❯ 1. Alpha');
    expect(terminal.cursorHidden()).toBe(true);
    expect(terminal.written.slice(terminal.written.lastIndexOf('\u001b[?25h'))).toContain(
      '\u001b[?2004h',
    );
    terminal.press(KEYS.down, KEYS.enter);
    expect((await asked).answer).toBe('Beta');
    expect(process.listenerCount('SIGTSTP')).toBe(baseline.stop);
    expect(process.listenerCount('SIGCONT')).toBe(baseline.cont);
  });

  it('suspends the same way on Ctrl+Z pressed as a key in raw mode', async () => {
    ({ terminal, provider } = providerOnTerminal({ columns: 60, rows: 20 }));
    const seen = fakeKill();
    const asked = provider.ask(QUESTION);
    await terminal.waitFor('❯ 1. Alpha');
    terminal.press('\u001a');
    await vi.waitFor(() => expect(seen.stops).toBe(1));
    // The whole process group stops, as for a Ctrl+Z in cooked mode: under `pnpm start` its
    // parents stop too, and the shell gets the terminal back.
    expect(seen.stopped).toEqual([0]);
    expect(terminal.input.isRaw).toBe(false);
    process.emit('SIGCONT', 'SIGCONT');
    await terminal.waitFor('❯ 1. Alpha');
    terminal.press(KEYS.enter);
    expect((await asked).answer).toBe('Alpha');
  });

  it('leaves SIGTSTP to a host that listens to it', async () => {
    ({ terminal, provider } = providerOnTerminal({ columns: 60, rows: 20 }));
    const seen = fakeKill();
    const host = vi.fn();
    process.on('SIGTSTP', host);
    try {
      const asked = provider.ask(QUESTION);
      await terminal.waitFor('❯ 1. Alpha');
      process.emit('SIGTSTP', 'SIGTSTP');
      expect(host).toHaveBeenCalledTimes(1);
      expect(seen.stops).toBe(0);
      expect(terminal.input.isRaw).toBe(true);
      terminal.press(KEYS.enter);
      expect((await asked).answer).toBe('Alpha');
    } finally {
      process.removeListener('SIGTSTP', host);
    }
  });
});
