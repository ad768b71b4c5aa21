import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { DATABASE } from '../support/question-fixtures.js';
import { providerOnTerminal } from '../support/question-provider.js';

let terminal: FakeTerminal;
let provider: ReadlineProvider;

function open(options: { columns?: number; rows?: number } = {}): FakeTerminal {
  ({ terminal, provider } = providerOnTerminal({ ...options, escapeCodeTimeout: 10 }));
  return terminal;
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; name?: string }> {
  return promise.then(
    () => {
      throw new Error('Expected the question to fail.');
    },
    (error: { code?: string; name?: string }) => error,
  );
}

/** After a question ended: the menu is gone, the cursor shows, raw mode is back off. */
async function expectRestored(summary: string): Promise<void> {
  expect(await terminal.text()).toBe(summary);
  expect(terminal.cursorHidden()).toBe(false);
  expect(terminal.rawModes).toEqual([true, false]);
  expect(terminal.input.isRaw).toBe(false);
  expect(terminal.written.endsWith('\u001b[?2004l\u001b[?25h')).toBe(true);
}

afterEach(() => {
  provider?.dispose();
  terminal?.dispose();
});

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

describe('a typed answer', () => {
  const CUSTOM: AskUserQuestionRequest = { ...DATABASE, allowCustom: true };

  it('offers the "Type your own answer" row by default, and not with allowCustom: false', async () => {
    open();
    const { allowCustom: _refused, ...byDefault } = DATABASE;
    const first = provider.ask(byDefault);
    expect(await terminal.waitFor('Postgres')).toContain('✎  Type your own answer');
    terminal.press(...'DuckDB', KEYS.enter);
    expect(await first).toEqual({ answer: 'DuckDB' });
    const second = provider.ask(DATABASE);
    const screen = await terminal.waitFor('❯ 1. Postgres');
    expect(screen).not.toContain('Type your own answer');
    terminal.press(KEYS.escape);
    await expect(second).rejects.toMatchObject({ code: 'ASK_DECLINED' });
  });

  it('adds a "Type your own answer" row that opens an inline editor', async () => {
    open();
    const answer = provider.ask(CUSTOM);
    expect(await terminal.waitFor('Postgres')).toContain('✎  Type your own answer');
    terminal.press(KEYS.end);
    expect(await terminal.text()).toContain('❯ ✎  Type your own answer');
    terminal.press(KEYS.enter);
    expect(await terminal.text()).toContain('Enter submit · Esc back to options · Ctrl+C cancel');
    terminal.press(...'  DuckDB  ', KEYS.enter);
    expect(await answer).toEqual({ answer: 'DuckDB' });
    await expectRestored('✔ Database · DuckDB');
  });

  it('jumps to the editor when letters are typed in the menu', async () => {
    open();
    const answer = provider.ask(CUSTOM);
    await terminal.waitFor('Postgres');
    terminal.press('C', 'o');
    expect(await terminal.text()).toContain('❯ ✎  Co');
    terminal.press(...'ckroach', KEYS.enter);
    expect(await answer).toEqual({ answer: 'Cockroach' });
  });

  it('goes back to the menu with Esc, keeping the draft', async () => {
    open();
    const answer = provider.ask(CUSTOM);
    await terminal.waitFor('Postgres');
    terminal.press('d', 'u', 'c', 'k', KEYS.escape);
    await terminal.waitFor('Type your own answer: duck');
    expect(await terminal.text()).toContain('Esc decline');
    terminal.press(KEYS.enter);
    await terminal.waitFor('Esc back to options');
    terminal.press('d', 'b', KEYS.enter);
    expect(await answer).toEqual({ answer: 'duckdb' });
  });

  it('does not submit a blank answer', async () => {
    open();
    const answer = provider.ask(CUSTOM);
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.end, KEYS.enter, ' ', ' ', KEYS.enter);
    expect(await terminal.text()).toContain('Type an answer first');
    terminal.press('x', KEYS.enter);
    expect(await answer).toEqual({ answer: 'x' });
  });

  it('edits with the usual readline keys', async () => {
    open();
    const answer = provider.ask({ question: 'Project name?' });
    await terminal.waitFor('Project name?');
    terminal.press(...'my app', KEYS.ctrlA, ...'new ', KEYS.ctrlE, KEYS.backspace, 'x');
    expect(await terminal.text()).toContain('❯ new my apx');
    terminal.press(KEYS.ctrlW);
    expect(await terminal.text()).toContain('❯ new my');
    terminal.press(KEYS.ctrlU, ...'final', KEYS.left, KEYS.left, KEYS.delete, KEYS.enter);
    expect(await answer).toEqual({ answer: 'finl' });
  });

  it('treats a question without options as a line editor straight away', async () => {
    open();
    const answer = provider.ask({ header: 'Name', question: 'What should the project be called?' });
    expect(await terminal.waitFor('called?')).toBe(
      [
        '? Name',
        '  What should the project be called?',
        '',
        // The drawn cursor is a reverse-video space after the pointer.
        '❯  ',
        'Enter submit · Esc decline · Ctrl+C cancel',
      ].join('\n'),
    );
    terminal.press(...'my-app', KEYS.enter);
    expect(await answer).toEqual({ answer: 'my-app' });
    await expectRestored('✔ Name · my-app');
  });

  it('declines a question without options with Esc', async () => {
    open();
    const answer = provider.ask({ question: 'Project name?' });
    await terminal.waitFor('Project name?');
    terminal.press('a', KEYS.escape);
    expect((await errorOf(answer)).code).toBe('ASK_DECLINED');
    await expectRestored('✖ Project name? · declined');
  });

  it('keeps a pasted line break as a space instead of submitting', async () => {
    open();
    const answer = provider.ask({ question: 'Describe it' });
    await terminal.waitFor('Describe it');
    terminal.press(`${KEYS.pasteStart}first line\rsecond line${KEYS.pasteEnd}`);
    expect(await terminal.text()).toContain('❯ first line second line');
    terminal.press(KEYS.enter);
    expect(await answer).toEqual({ answer: 'first line second line' });
  });
});
