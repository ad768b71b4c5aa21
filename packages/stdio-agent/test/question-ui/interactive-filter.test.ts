import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type FakeTerminal, KEYS, TEST_ENV } from '../../src/testing.js';
import { providerOnTerminal } from '../support/question-provider.js';

const CITY: AskUserQuestionRequest = {
  question: 'Which city?',
  options: [
    { label: 'Café Paris' },
    { label: 'Straße Berlin' },
    { label: 'Cafeteria Roma', description: 'Near the station.' },
    { label: 'Oslo' },
  ],
  allowCustom: false,
};

let terminal: FakeTerminal;
let provider: ReadlineProvider;

function open(env: NodeJS.ProcessEnv = TEST_ENV, rows = 24): FakeTerminal {
  ({ terminal, provider } = providerOnTerminal({ columns: 60, rows, env, escapeCodeTimeout: 10 }));
  return terminal;
}

/** The text on screen drawn underlined (a filter's highlight), row by row. */
async function underlined(): Promise<string[]> {
  await terminal.flush();
  const buffer = terminal.terminal.buffer.active;
  const found: string[] = [];
  for (let row = 0; row < terminal.terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    let text = '';
    for (let column = 0; line !== undefined && column < line.length; column++) {
      const cell = line.getCell(column);
      if (cell?.isUnderline()) text += cell.getChars();
      else if (text !== '' && !text.endsWith('|')) text += '|';
    }
    if (text !== '') found.push(text.replace(/\|$/, ''));
  }
  return found;
}

afterEach(() => {
  provider?.dispose();
  terminal?.dispose();
});

describe('typing to filter the menu', () => {
  it('narrows the list as letters are typed, the rows keep their numbers, the matches underlined', async () => {
    open();
    const answer = provider.ask(CITY);
    await terminal.waitFor('4. Oslo');
    terminal.press('C', 'A', 'F', 'E');
    const screen = await terminal.waitFor('2 of 4 match');
    expect(screen).toBe(
      [
        '? Which city?',
        '',
        '❯ 1. Café Paris',
        '  3. Cafeteria Roma',
        '  2 of 4 match "CAFE"',
        // The details pane keeps the room of the tallest description, as without a filter.
        '',
        '',
        '↑↓ move · Enter select · Backspace widen · Esc clear filter',
        'Ctrl+C cancel',
      ].join('\n'),
    );
    expect(await underlined()).toEqual(['Café', 'Cafe']);
    terminal.press(KEYS.down);
    await terminal.waitFor('❯ 3. Cafeteria Roma');
    // The focused option's description shows, as without a filter.
    await terminal.waitFor('Near the station.');
    // Nothing matches: no option is shown, nor the details of the one that had the focus.
    terminal.press('x');
    const none = await terminal.waitFor('No option matches "CAFEx"');
    expect(none).not.toContain('Near the station.');
    terminal.press(KEYS.backspace);
    await terminal.waitFor('❯ 3. Cafeteria Roma');
    terminal.press(KEYS.enter);
    expect(await answer).toMatchObject({ answer: 'Cafeteria Roma' });
    expect(await terminal.text()).toBe('✔ Which city? · Cafeteria Roma');
  });

  it('widens with Backspace, clears with Esc, and says when nothing matches', async () => {
    open();
    const answer = provider.ask(CITY);
    await terminal.waitFor('4. Oslo');
    terminal.press('s', 's');
    expect(await terminal.waitFor('1 of 4 match "ss"')).toContain('❯ 2. Straße Berlin');
    expect(await underlined()).toEqual(['ß']);
    terminal.press('x');
    const none = await terminal.waitFor('No option matches "ssx"');
    expect(none).toContain('(no option matches)');
    terminal.press(KEYS.enter);
    await terminal.waitFor('No option matches: Backspace widens, Esc clears.');
    terminal.press(KEYS.backspace);
    await terminal.waitFor('1 of 4 match "ss"');
    terminal.press(KEYS.escape);
    const whole = await terminal.waitFor('4. Oslo');
    expect(whole).not.toContain('match');
    expect(whole).toContain('❯ 2. Straße Berlin');
    expect(await underlined()).toEqual([]);
    terminal.press(KEYS.escape);
    await expect(answer).rejects.toMatchObject({ code: 'ASK_DECLINED' });
  });

  it('matches only what the list shows: a label, never a description out of sight', async () => {
    open();
    const answer = provider.ask(CITY);
    await terminal.waitFor('4. Oslo');
    // "Near the station." is Cafeteria Roma's description, shown only while it is focused.
    terminal.press(...'station');
    await terminal.waitFor('No option matches "station"');
    terminal.press(KEYS.escape);
    await terminal.waitFor('4. Oslo');
    terminal.press(KEYS.escape);
    await expect(answer).rejects.toMatchObject({ code: 'ASK_DECLINED' });
  });

  it('chooses by the original number while a filter is on, with Enter', async () => {
    open();
    const answer = provider.ask(CITY);
    await terminal.waitFor('4. Oslo');
    terminal.press('c', 'a', 'f');
    await terminal.waitFor('2 of 4 match "caf"');
    terminal.press('3');
    const held = await terminal.waitFor('Option 3');
    expect(held).toContain('❯ 3. Cafeteria Roma');
    terminal.press(KEYS.enter);
    expect(await answer).toMatchObject({ answer: 'Cafeteria Roma' });
  });

  it('in a question that takes a typed answer, sends a text that matches nothing', async () => {
    open();
    const answer = provider.ask({ ...CITY, allowCustom: true });
    await terminal.waitFor('4. Oslo');
    terminal.press('R', 'o', 'm', 'a');
    const screen = await terminal.waitFor('1 of 4 match "Roma"');
    expect(screen).toContain('❯ 3. Cafeteria Roma');
    expect(screen).toContain('✎  Type your own answer: Roma');
    terminal.press('n');
    const typed = await terminal.waitFor('No option matches "Roman"');
    expect(typed).toContain('❯ ✎  Roman');
    terminal.press(KEYS.enter);
    expect(await answer).toMatchObject({ answer: 'Roman' });
  });

  it('shows how many matches are out of sight on a small screen', async () => {
    open(TEST_ENV, 8);
    const answer = provider.ask({
      question: 'Which option?',
      options: Array.from({ length: 50 }, (_, index) => ({ label: `Option ${index + 1}` })),
      allowCustom: false,
    });
    await terminal.waitFor('1. Option 1');
    terminal.press('o', 'n', ' ', '4');
    // "4" numbers option 4, shown: it is held as a number, and the focus goes to it.
    await terminal.waitFor('Option 4 · Enter choose');
    terminal.press('5');
    // "45" numbers option 45, which "on " matches too.
    await terminal.waitFor('❯ 45. Option 45');
    // Esc drops the number held; the filter stays.
    terminal.press(KEYS.escape);
    await terminal.waitFor('Enter select');
    terminal.press(KEYS.backspace, 'x');
    expect(await terminal.waitFor('No option matches "onx"')).toContain('(no option matches)');
    terminal.press(KEYS.backspace);
    const screen = await terminal.waitFor(/50 of 50 match "on"/);
    // The focus stayed on option 45, which "on" still matches.
    expect(screen).toContain('❯ 45. Option 45\n  50 of 50 match "on"   ↑ 41 more   ↓ 5 more');
    terminal.press(KEYS.ctrlC);
    await expect(answer).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
  });

  it('underlines nothing without colour, and the filter still narrows', async () => {
    open({ ...TEST_ENV, NO_COLOR: '1' });
    const answer = provider.ask(CITY);
    await terminal.waitFor('4. Oslo');
    terminal.press('o', 's');
    await terminal.waitFor('1 of 4 match "os"');
    expect(await underlined()).toEqual([]);
    expect(terminal.written).not.toMatch(/\[1;4m/);
    terminal.press(KEYS.enter);
    expect(await answer).toMatchObject({ answer: 'Oslo' });
  });
});
