import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { open, provider, terminal } from '../support/menu-terminal.js';
import { PLAN } from '../support/question-fixtures.js';

describe('several questions in the interactive menu', () => {
  it('fits a small terminal: the line of pages shortens, never wraps, and keeps every mark', async () => {
    open({ columns: 30, rows: 12 });
    void provider.askAll(PLAN).catch(() => {});
    const screen = await terminal.waitFor('TypeScript');
    const lines = screen.split('\n');
    expect(lines[0]).toBe('[1] 2 3 Review');
    expect(lines.length).toBeLessThanOrEqual(11);
  });

  it('at 40 columns shows which questions are answered, and wraps answers into free rows', async () => {
    open({ columns: 40, rows: 20 });
    const answer = provider.askAll(PLAN);
    await terminal.waitFor('TypeScript');
    terminal.press(KEYS.enter);
    await terminal.waitFor('Question 2 of 3');
    terminal.press(...'a-service-name-that-is-long-enough-to-wrap', KEYS.enter);
    await terminal.waitFor('Question 3 of 3');
    terminal.press(' ', KEYS.down, ' ', KEYS.enter);
    const review = await terminal.waitFor('Review your answers');
    // Every answered question keeps its mark; the name goes on in the free rows below.
    expect(review).toBe(
      [
        'Review  ✔1 ✔2 ✔3 [Review]',
        '? New service: Review your answers',
        '  1. Language · TypeScript',
        '  2. Name ·',
        '     a-service-name-that-is-long-enough',
        '     -to-wrap',
        '  3. Features · Auth, Tests',
        'Enter submit · 1-3 change an answer',
        'Shift+Tab back · Esc decline',
        'Ctrl+C cancel',
      ].join('\n'),
    );
    terminal.press(KEYS.enter);
    await answer;
  });

  it('shows model text inert in the line of pages, the review and the summary', async () => {
    open();
    const answer = provider.askAll({
      header: 'Set\u001b]0;title\u0007',
      questions: [
        { id: 'a', header: 'Evil\u001b[2J', question: 'Name?' },
        { id: 'b', question: 'B?' },
      ],
    });
    expect(await terminal.waitFor('Evil')).toContain('[Evil^[[2J]');
    terminal.press('x', KEYS.enter, 'y', KEYS.enter);
    expect(await terminal.waitFor('Review your answers')).toContain(
      '? Set^[]0;title^G: Review your answers',
    );
    terminal.press(KEYS.enter);
    await answer;
    expect(await terminal.text()).toContain('✔ Evil^[[2J · x');
  });
});
