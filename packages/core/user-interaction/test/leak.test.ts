import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createUserInteraction } from '../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterCollection(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const request = {
  question: 'Which database?',
  options: [{ label: 'PostgreSQL', recommended: true }, { label: 'SQLite' }],
};

describe('leaks', () => {
  it('100,000 asks leave no listeners, no timers and no retained memory behind', async () => {
    expect(gc, 'run the tests with --expose-gc').toBeTypeOf('function');
    const interaction = createUserInteraction();
    interaction.registerProvider({
      async ask(asked) {
        const option = asked.options?.[0];
        if (option === undefined) throw new Error('unexpected');
        return { answer: option.label, option };
      },
    });
    const turn = new AbortController();
    const round = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const which = i % 3;
        await interaction.ask(
          which === 0
            ? request
            : which === 1
              ? { ...request, signal: turn.signal }
              : { ...request, signal: turn.signal, timeoutMs: 60_000 },
        );
      }
    };
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout');
    const timersBefore = timers().length;
    await round(10_000);
    const before = heapAfterCollection();
    await round(100_000);
    const after = heapAfterCollection();
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    expect(timers()).toHaveLength(timersBefore);
    // Retaining even 16 bytes per ask would show as 1.6 MB.
    expect(after - before).toBeLessThan(1_000_000);
    // 110,000 asks, as many as the bound above needs to see 16 bytes an ask: 4 s alone, 11 s
    // in a whole run on a busy machine, more than half the 20 s default.
  }, 60_000);
});
