import { afterEach, describe, expect, it } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { countdownLine, nextTick, timeLeftText } from '../../src/question-ui/terminal/countdown.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { DATABASE } from '../support/question-fixtures.js';
import { providerOnPipes, providerOnTerminal } from '../support/question-provider.js';

let terminal: FakeTerminal | undefined;
let provider: ReadlineProvider | undefined;
afterEach(() => {
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
    clock += 1_500;
    expect((await terminal.waitFor('1:04 left')).split('\n').at(-1)).toMatch(/^1:04 left/);
    terminal.press(KEYS.enter);
    expect(await answer).toMatchObject({ option: { label: 'Postgres' } });
    const after = terminal.written.length;
    clock += 1_000;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(terminal.written.length).toBe(after);
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
