import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { countdownLine, nextTick, timeLeftText } from '../../src/question-ui/terminal/countdown.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { DATABASE } from '../support/question-fixtures.js';
import { providerOnPipes, providerOnTerminal } from '../support/question-provider.js';

let terminal: FakeTerminal | undefined;
let provider: ReadlineProvider | undefined;
afterEach(() => {
  vi.useRealTimers();
  provider?.dispose();
  terminal?.dispose();
});

describe('the countdown of a question with a time limit', () => {
  it('counts seconds, then minutes and seconds, then hours', () => {
    expect(timeLeftText(42_000)).toBe('42 s');
    expect(timeLeftText(41_001)).toBe('42 s');
    expect(timeLeftText(0)).toBe('0 s');
    expect(timeLeftText(-5)).toBe('0 s');
    expect(timeLeftText(65_000)).toBe('1:05');
    expect(timeLeftText(3_600_000)).toBe('1:00:00');
    expect(countdownLine(10_000, 0)).toBe('10 s left to answer: then it is withdrawn, unanswered');
    // The next redraw comes when the shown second changes, never later.
    expect(nextTick(10_000, 0)).toBe(1000);
    expect(nextTick(10_000, 250)).toBe(750);
    expect(nextTick(10_000, 10_000)).toBeUndefined();
  });

  it('is drawn under the menu and counts down as the clock goes, and stops when answered', async () => {
    let clock = 1_000_000;
    ({ terminal, provider } = providerOnTerminal({ columns: 100, rows: 20, now: () => clock }));
    const answer = provider.ask({ ...DATABASE, timeoutMs: 65_500 });
    const first = await terminal.waitFor('left to answer');
    expect(first.split('\n').at(-1)).toBe('1:06 left to answer: then it is withdrawn, unanswered');
    // The menu is all there, above it.
    expect(first).toContain('↑↓ move · Enter select · 1-3 choose · Esc decline · Ctrl+C cancel');
    // From here the countdown's next redraws are due on fake timers: the one already due (when
    // the shown second changes) schedules the next on them, and the test moves them on.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    clock += 1_500;
    const terminalOf = terminal;
    while (!terminalOf.written.includes('1:04 left')) await terminalOf.nextWrite();
    terminal.press(KEYS.enter);
    expect(await answer).toMatchObject({ option: { label: 'Postgres' } });
    const after = terminal.written.length;
    // Past every second the countdown would have redrawn at: nothing more is written.
    clock += 5_000;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(terminal.written.length).toBe(after);
    vi.useRealTimers();
    expect(await terminal.text()).not.toContain('left to answer');
  });

  it('is said once in line mode, where nothing is redrawn', async () => {
    const { pipes, provider: piped } = providerOnPipes({ now: () => 0 });
    provider = piped;
    const answer = provider.ask({ ...DATABASE, timeoutMs: 30_000 });
    pipes.input.write('2\n');
    await answer;
    expect(pipes.text()).toContain(
      '  3. MySQL\n30 s left to answer: then it is withdrawn, unanswered.\nChoose 1-3',
    );
  });
});
