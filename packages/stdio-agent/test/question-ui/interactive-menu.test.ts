import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { errorOf } from '../support/error-of.js';
import { expectRestored, open, provider, terminal } from '../support/menu-terminal.js';
import { DATABASE } from '../support/question-fixtures.js';

describe('the interactive menu', () => {
  it('shows the header, the question, the numbered options and the keys', async () => {
    open();
    void provider.ask(DATABASE).catch(() => {});
    expect(await terminal.waitFor('Postgres')).toBe(
      [
        '? Database',
        '  Which database should we use?',
        '',
        '❯ 1. Postgres (recommended)',
        '  2. SQLite',
        '  3. MySQL',
        '',
        '     Robust; needs a server.',
        '↑↓ move · Enter select · 1-3 choose · Esc decline · Ctrl+C cancel',
      ].join('\n'),
    );
    expect(terminal.cursorHidden()).toBe(true);
    expect(terminal.input.isRaw).toBe(true);
  });

  it('Ctrl+D at a question says what ends it instead of doing nothing with no word', async () => {
    open();
    const answer = provider.ask({
      question: 'Pick',
      options: [{ label: 'A' }, { label: 'B' }],
      allowCustom: false,
    });
    await terminal.waitFor('❯ 1. A');
    terminal.press('\u0004');
    await terminal.waitFor('Ctrl+D ends no question: Esc declines it, Ctrl+C cancels.');
    terminal.press(KEYS.enter);
    expect((await answer).answer).toBe('A');
  });

  it('focuses the first option when none is recommended', async () => {
    open();
    void provider
      .ask({ question: 'Pick', options: [{ label: 'A' }, { label: 'B' }], allowCustom: false })
      .catch(() => {});
    expect(await terminal.waitFor('B')).toContain('❯ 1. A');
  });

  it('moves the focus with the arrow keys, shows its description, and answers with Enter', async () => {
    open();
    const answer = provider.ask(DATABASE);
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.down);
    const screen = await terminal.text();
    expect(screen).toContain('❯ 2. SQLite');
    expect(screen).toContain('One file, no server.');
    expect(screen).not.toContain('Robust; needs a server.');
    terminal.press(KEYS.enter);
    const result = await answer;
    expect(result).toEqual({ answer: 'sqlite', option: DATABASE.options?.[1] });
    expect(result.option).toBe(DATABASE.options?.[1]);
    await expectRestored('✔ Database · SQLite');
  });

  it('wraps the focus at both ends, with arrows, Ctrl+P/N, Tab and Shift+Tab', async () => {
    open();
    const answer = provider.ask(DATABASE);
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.up);
    expect(await terminal.text()).toContain('❯ 3. MySQL');
    terminal.press(KEYS.down);
    expect(await terminal.text()).toContain('❯ 1. Postgres');
    terminal.press(KEYS.ctrlP);
    expect(await terminal.text()).toContain('❯ 3. MySQL');
    terminal.press(KEYS.ctrlN, KEYS.tab);
    expect(await terminal.text()).toContain('❯ 2. SQLite');
    terminal.press(KEYS.shiftTab, KEYS.enter);
    expect((await answer).answer).toBe('postgres');
  });

  it('jumps with Home, End, PageUp and PageDown', async () => {
    open({ rows: 12 });
    const options = Array.from({ length: 40 }, (_, index) => ({ label: `Option ${index + 1}` }));
    const answer = provider.ask({ question: 'Pick one', options, allowCustom: false });
    await terminal.waitFor('Option 1');
    terminal.press(KEYS.end);
    expect(await terminal.text()).toContain('❯ 40. Option 40');
    terminal.press(KEYS.home);
    expect(await terminal.text()).toContain('❯  1. Option 1');
    terminal.press(KEYS.pageDown);
    const page = await terminal.text();
    const focused = /❯ +(\d+)\./.exec(page)?.[1];
    expect(Number(focused)).toBeGreaterThan(4);
    terminal.press(KEYS.pageUp);
    expect(await terminal.text()).toContain('❯  1. Option 1');
    terminal.press(KEYS.pageDown, KEYS.enter);
    expect((await answer).answer).toBe(`Option ${focused}`);
  });

  it('chooses at once with a digit when there are nine options or fewer', async () => {
    open();
    const answer = provider.ask(DATABASE);
    await terminal.waitFor('Postgres');
    terminal.press('3');
    expect(await answer).toEqual({ answer: 'mysql', option: DATABASE.options?.[2] });
    await expectRestored('✔ Database · MySQL');
  });

  it('refuses a digit that names no option and keeps the question open', async () => {
    open();
    const answer = provider.ask(DATABASE);
    await terminal.waitFor('Postgres');
    terminal.press('7');
    expect(await terminal.text()).toContain('There is no option 7: choose 1-3.');
    terminal.press('0');
    expect(await terminal.text()).toContain('There is no option 0: choose 1-3.');
    terminal.press(KEYS.down);
    expect(await terminal.text()).not.toContain('There is no option');
    terminal.press(KEYS.enter);
    expect((await answer).answer).toBe('sqlite');
  });

  it('builds a number from digits past nine options, shows it, and chooses it with Enter', async () => {
    open();
    const options = Array.from({ length: 25 }, (_, index) => ({ label: `Option ${index + 1}` }));
    const answer = provider.ask({ question: 'Pick one', options, allowCustom: false });
    await terminal.waitFor('Option 1');
    terminal.press('1');
    expect(await terminal.text()).toContain('Option 1 · Enter choose');
    terminal.press('2');
    let screen = await terminal.text();
    expect(screen).toContain('Option 12 · Enter choose');
    expect(screen).toContain('❯ 12. Option 12');
    terminal.press('9');
    screen = await terminal.text();
    expect(screen).toContain('There is no option 129: choose 1-25.');
    expect(screen).toContain('Option 12 · Enter choose');
    terminal.press(KEYS.backspace);
    expect(await terminal.text()).toContain('Option 1 · Enter choose');
    terminal.press('7', KEYS.enter);
    expect((await answer).answer).toBe('Option 17');
  });

  it('clears a typed number with Esc, and then declines with a second Esc', async () => {
    open();
    const options = Array.from({ length: 12 }, (_, index) => ({ label: `Option ${index + 1}` }));
    const answer = provider.ask({ question: 'Pick one', options, allowCustom: false });
    await terminal.waitFor('Option 1');
    terminal.press('1', KEYS.escape);
    await terminal.waitFor('↑↓ move');
    expect(await terminal.text()).not.toContain('Enter choose');
    terminal.press(KEYS.escape);
    expect((await errorOf(answer)).code).toBe('ASK_DECLINED');
  });

  it('declines with Esc: ASK_DECLINED, and the menu collapses to a line saying so', async () => {
    open();
    const answer = provider.ask(DATABASE);
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.escape);
    const error = await errorOf(answer);
    expect(error).toMatchObject({ name: 'UserInteractionError', code: 'ASK_DECLINED' });
    await expectRestored('✖ Database · declined');
  });

  it('cancels with Ctrl+C: ASK_CANCELLED, and the process goes on', async () => {
    open();
    const answer = provider.ask(DATABASE);
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.ctrlC);
    expect((await errorOf(answer)).code).toBe('ASK_CANCELLED');
    await expectRestored('✖ Database · cancelled');
  });

  it('leaves raw mode on afterwards when it was on before', async () => {
    open();
    terminal.input.setRawMode(true);
    terminal.rawModes.length = 0;
    const answer = provider.ask(DATABASE);
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.enter);
    await answer;
    expect(terminal.rawModes).toEqual([]);
    expect(terminal.input.isRaw).toBe(true);
  });

  it('drops keys that reach a question before it is drawn, when nobody was reading', async () => {
    open();
    // What the terminal held while nobody read arrives as reading resumes, before the question shows.
    terminal.input.once('resume', () => terminal.press('3'));
    const answer = provider.ask(DATABASE);
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.enter);
    expect((await answer).answer).toBe('postgres');
  });

  it('takes a key pressed the moment the question is drawn as its answer', async () => {
    open();
    for (const round of [1, 2, 3]) {
      // Asked again and again: from the second on, the input was paused by the one before.
      const drawn = terminal.nextWrite();
      const answer = provider.ask(DATABASE);
      await drawn;
      expect(terminal.written).toContain('Postgres');
      terminal.press('3');
      expect((await answer).answer, `round ${round}`).toBe('mysql');
    }
  });

  it('does not take keys typed before the question appeared as its answer', async () => {
    open();
    terminal.press('2');
    const answer = provider.ask(DATABASE);
    terminal.press('3', KEYS.enter);
    await terminal.waitFor('Postgres');
    expect(await terminal.text()).toContain('❯ 1. Postgres');
    terminal.press(KEYS.down, KEYS.enter);
    expect((await answer).answer).toBe('sqlite');
  });
});
