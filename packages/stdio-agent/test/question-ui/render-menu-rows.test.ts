import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { menuKey, withWindow } from '../../src/question-ui/menu/menu-state.js';
import { renderMenu } from '../../src/question-ui/menu/render-menu.js';
import { type QuestionView, questionView } from '../../src/question-ui/question-view.js';
import { textWidth } from '../../src/text/text-width.js';
import { draw, options, stateFor, style } from '../support/menu-frames.js';

describe('renderMenu', () => {
  it('shows header, question, numbered options, the focused option’s details and the key hints', () => {
    const { text } = draw(
      {
        header: 'Database',
        question: 'Which database should we use?',
        options: [
          { label: 'Postgres', description: 'Robust; needs a server.', recommended: true },
          { label: 'SQLite', description: 'One file.' },
        ],
        allowCustom: true,
      },
      80,
      24,
    );
    expect(text).toEqual([
      '? Database',
      '  Which database should we use?',
      '',
      '❯ 1. Postgres (recommended)',
      '  2. SQLite',
      '  ✎  Type your own answer',
      '',
      '     Robust; needs a server.',
      '↑↓ move · Enter select · 1-2 choose · or type an answer · Esc decline',
      'Ctrl+C cancel',
    ]);
  });

  it('fits every line in 40 columns and keeps Esc and Ctrl+C in the hints', () => {
    const { text } = draw(
      {
        question: 'A question long enough to need several lines at forty columns, surely?',
        options: [{ label: 'A label that is longer than the forty columns of this terminal' }],
        allowCustom: true,
      },
      40,
      24,
    );
    for (const line of text) expect(textWidth(line)).toBeLessThanOrEqual(39);
    expect(text.join('\n')).toContain('Esc decline');
    expect(text.join('\n')).toContain('Ctrl+C cancel');
    expect(text[0]).toBe('? A question long enough to need');
  });

  it('shows a window around the focus with the number of rows above and below', () => {
    const view = questionView({ question: 'Pick one', options: options(100), allowCustom: false });
    let state = stateFor(view);
    let frame = renderMenu(view, state, { columns: 60, rows: 12 }, style);
    // As the session does: each frame's window is kept for the next key.
    for (const press of ['end', 'up', 'up']) {
      state = menuKey(state, { text: undefined, key: { name: press } }).state;
      frame = renderMenu(view, state, { columns: 60, rows: 12 }, style);
      state = withWindow(state, frame.top, frame.page);
    }
    const text = frame.lines.map((line) => stripVTControlCharacters(line));
    expect(text.length).toBeLessThanOrEqual(11);
    expect(text).toContain('❯  98. Option 98');
    expect(text).toContain('  100. Option 100');
    const above = frame.top;
    expect(text).toContain(`  ↑ ${above} more`);
    expect(frame.top + frame.page).toBe(100);
  });

  it('does work for the visible rows only, however long the list', () => {
    const request = { question: 'Pick one', options: options(10_000) };
    const view = questionView(request);
    let labels = 0;
    const counting: QuestionView = {
      ...view,
      label(index) {
        labels++;
        return view.label(index);
      },
    };
    const state = withWindow({ ...stateFor(view), focus: 5_000 }, 4_990, 10);
    renderMenu(counting, state, { columns: 80, rows: 24 }, style);
    expect(labels).toBeLessThan(30);
  });

  it('cuts a question taller than the screen with … and keeps room for the list', () => {
    const question = Array.from({ length: 40 }, (_, index) => `Line ${index + 1}.`).join('\n');
    const { text } = draw({ question, options: options(5) }, 60, 16);
    expect(text.length).toBeLessThanOrEqual(15);
    expect(text.filter((line) => /^(❯ | {2})\d\. Option/.test(line)).length).toBeGreaterThanOrEqual(
      3,
    );
    expect(text.some((line) => line.endsWith('…'))).toBe(true);
  });

  it('keeps the line breaks of a multi-line question, indented under the first line', () => {
    const { text } = draw(
      { question: 'First paragraph.\n\nSecond one.', options: options(2) },
      60,
      20,
    );
    expect(text.slice(0, 3)).toEqual(['? First paragraph.', '', '  Second one.']);
  });

  it('cuts labels to one row and shows the focused one whole under the list', () => {
    const label = 'A very long label that goes on and on past the edge of the screen';
    const view = questionView({
      question: 'Pick',
      options: [{ label }, { label: `${label}!` }],
      allowCustom: false,
    });
    const text = renderMenu(view, stateFor(view), { columns: 40, rows: 20 }, style).lines.map(
      (line) => stripVTControlCharacters(line),
    );
    expect(text.slice(2)).toEqual([
      '❯ 1. A very long label that goes on an…',
      '  2. A very long label that goes on an…',
      '',
      '     A very long label that goes on and',
      '     on past the edge of the screen',
      '↑↓ move · Enter select · 1-2 choose',
      'Esc decline · Ctrl+C cancel',
    ]);
  });

  it('shows the draft of a custom answer in its row', () => {
    const view = questionView({ question: 'Pick', options: options(2), allowCustom: true });
    let state = stateFor(view);
    for (const text of ['m', 'y']) state = menuKey(state, { text, key: { name: text } }).state;
    state = menuKey(state, { text: undefined, key: { name: 'escape' } }).state;
    const text = renderMenu(view, state, { columns: 60, rows: 20 }, style).lines.map((line) =>
      stripVTControlCharacters(line),
    );
    expect(text).toContain('❯ ✎  Type your own answer: my');
  });

  it('shows a number being typed and a notice for a wrong one', () => {
    const view = questionView({ question: 'Pick', options: options(30) });
    let state = stateFor(view);
    state = menuKey(state, { text: '3', key: { name: '3' } }).state;
    let text = renderMenu(view, state, { columns: 80, rows: 24 }, style).lines.join('\n');
    expect(stripVTControlCharacters(text)).toContain('Option 3 · Enter choose');
    state = menuKey(state, { text: '5', key: { name: '5' } }).state;
    text = stripVTControlCharacters(
      renderMenu(view, state, { columns: 80, rows: 24 }, style).lines.join('\n'),
    );
    expect(text).toContain('There is no option 35: choose 1-30.');
  });
});
