import type { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { createReadlineProvider } from '../../src/index.js';
import { createFakeTerminal, type FakeTerminal, KEYS, TEST_ENV } from '../../src/testing.js';
import { providerOnSharedLines, providerOnTerminal } from '../support/question-provider.js';

const QUESTION: AskUserQuestionRequest = {
  header: 'Pick',
  question: 'Which one?',
  options: [{ label: 'One' }, { label: 'Two' }, { label: 'Three' }],
  allowCustom: true,
};

const ROUNDS = 1_000;

/** Every event of every emitter with its number of listeners. */
function listeners(emitters: Record<string, EventEmitter>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, emitter] of Object.entries(emitters)) {
    for (const event of emitter.eventNames()) {
      counts[`${name}.${String(event)}`] = emitter.listenerCount(event);
    }
  }
  return counts;
}

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/** Asks, then waits until the question is drawn: from then on it takes keys. */
async function asked<T>(
  terminal: FakeTerminal,
  ask: () => Promise<T>,
): Promise<{ answer: Promise<T> }> {
  const drawn = terminal.nextWrite();
  const answer = ask();
  await drawn;
  return { answer };
}

describe('a thousand questions in a row', () => {
  it('leave no listener behind in interactive mode', async () => {
    const { terminal, provider } = providerOnTerminal({ emulate: false });
    const emitters = { input: terminal.input, output: terminal.output, process };
    const answerOne = async (round: number): Promise<void> => {
      const { answer } = await asked(terminal, () => provider.ask(QUESTION));
      if (round % 3 === 0) terminal.press('2');
      else if (round % 3 === 1) terminal.press(KEYS.down, KEYS.enter);
      else terminal.press('x', KEYS.enter);
      await answer;
    };
    await answerOne(0);
    const before = listeners(emitters);
    const heapBefore = heapUsed();
    for (let round = 0; round < ROUNDS; round++) await answerOne(round);
    expect(listeners(emitters)).toEqual(before);
    expect(heapUsed() - heapBefore).toBeLessThan(8 * 1024 * 1024);
    expect(provider.pending).toBe(0);
    provider.dispose();
  });

  it('leave no listener behind on a shared terminal Interface', async () => {
    const terminal = createFakeTerminal({ emulate: false });
    const readline = createInterface({
      input: terminal.input,
      output: terminal.output,
      terminal: true,
    });
    const provider = createReadlineProvider({ readline, env: TEST_ENV });
    const emitters = { input: terminal.input, output: terminal.output, readline, process };
    const before = listeners(emitters);
    for (let round = 0; round < ROUNDS; round++) {
      const controller = new AbortController();
      const { answer } = await asked(terminal, () =>
        provider.ask({ ...QUESTION, signal: controller.signal }),
      );
      terminal.press(KEYS.enter);
      await answer;
    }
    expect(listeners(emitters)).toEqual(before);
    provider.dispose();
    readline.close();
  });

  it('leave no listener behind in line mode, on a shared Interface', async () => {
    const { pipes, readline, host, provider } = providerOnSharedLines();
    pipes.input.write('hello\n');
    expect(await host.read()).toBe('hello');
    const emitters = { input: pipes.input, output: pipes.output, readline, process };
    const before = listeners(emitters);
    pipes.input.write('1\n2\n'.repeat(ROUNDS / 2));
    for (let round = 0; round < ROUNDS; round++) {
      const controller = new AbortController();
      const answer = await provider.ask({ ...QUESTION, signal: controller.signal });
      expect(answer.answer).toBe(round % 2 === 0 ? 'One' : 'Two');
    }
    expect(listeners(emitters)).toEqual(before);
    provider.dispose();
    readline.close();
  });

  it('leave no listener on the process when each comes from a provider disposed with it on screen', async () => {
    // The path of `bench/stdio-labels.bench.ts`: a provider per question on a terminal of its
    // own, a long list filtered by keys, then the provider disposed before any answer.
    const options = Array.from({ length: 2_000 }, (_, index) => ({
      label: `Caf\u00e9 cr\u00e8me ${index + 1} \u{1F468}\u200d\u{1F469}\u200d\u{1F467} \u05e9\u05dc\u05d5\u05dd`,
    }));
    const askOnce = async (): Promise<void> => {
      const { terminal, provider } = providerOnTerminal({ emulate: false });
      const { answer } = await asked(terminal, () =>
        provider.ask({ question: 'Which option?', options }),
      );
      terminal.press(KEYS.down, KEYS.down, 'c', 'r', KEYS.backspace, KEYS.down);
      provider.dispose();
      await expect(answer).rejects.toMatchObject({ code: 'INPUT_CLOSED' });
      expect(provider.pending).toBe(0);
    };
    await askOnce();
    const before = listeners({ process });
    for (let round = 0; round < 40; round++) await askOnce();
    // Every event the process has listeners for (exit, the ending signals, SIGTSTP, SIGCONT,
    // SIGWINCH, uncaughtException...), counted, not only the three a quick look would check.
    expect(listeners({ process })).toEqual(before);
  });

  it('leave no listener behind when asked several at a time, answered, cancelled or withdrawn', async () => {
    const { terminal, provider } = providerOnTerminal({ emulate: false });
    const emitters = { input: terminal.input, output: terminal.output, process };
    const set = {
      questions: [
        { ...QUESTION, id: 'one' },
        { ...QUESTION, id: 'two', multiSelect: true },
      ],
    };
    const askSet = async (round: number): Promise<void> => {
      const controller = new AbortController();
      const { answer } = await asked(terminal, () =>
        provider.askAll({ ...set, signal: controller.signal }),
      );
      if (round % 3 === 0) terminal.press('1', ' ', KEYS.enter, KEYS.enter);
      else if (round % 3 === 1) terminal.press(KEYS.ctrlC);
      else controller.abort();
      await answer.catch(() => {});
    };
    await askSet(0);
    const before = listeners(emitters);
    for (let round = 0; round < ROUNDS / 4; round++) await askSet(round);
    expect(listeners(emitters)).toEqual(before);
    expect(provider.pending).toBe(0);
    provider.dispose();
  });
});
