import { stripVTControlCharacters } from 'node:util';
import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hintLines } from '../../src/question-ui/menu/menu-hints.js';
import { type MenuNeeds, MIN_LIST_ROWS, planMenu } from '../../src/question-ui/menu/menu-layout.js';
import { initialMenuState, menuKey, withWindow } from '../../src/question-ui/menu/menu-state.js';
import type { MenuState } from '../../src/question-ui/menu/menu-types.js';
import { renderMenu } from '../../src/question-ui/menu/render-menu.js';
import { type QuestionView, questionView } from '../../src/question-ui/question-view.js';
import { terminalStyle } from '../../src/text/terminal-style.js';
import { textWidth } from '../../src/text/text-width.js';

const style = terminalStyle({ env: {}, interactive: true, platform: 'linux' });

function options(count: number) {
  return Array.from({ length: count }, (_, index) => ({ label: `Option ${index + 1}` }));
}

function stateFor(view: QuestionView): MenuState {
  return initialMenuState({
    optionCount: view.optionCount,
    allowCustom: view.allowCustom,
    recommended: view.recommended,
  });
}

function draw(request: AskUserQuestionRequest, columns: number, rows: number, state?: MenuState) {
  const view = questionView(request);
  const frame = renderMenu(view, state ?? stateFor(view), { columns, rows }, style);
  return { ...frame, text: frame.lines.map((line) => stripVTControlCharacters(line)) };
}

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

  it('keeps the focused row on screen in a terminal of a few rows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 20, max: 60 }),
        fc.integer({ min: 0, max: 30 }),
        fc.nat(),
        (rows, columns, count, seed) => {
          const view = questionView({ question: 'A question?', options: options(count) });
          const state = { ...stateFor(view), focus: count === 0 ? 0 : seed % count };
          const frame = renderMenu(view, state, { columns, rows }, style);
          const text = frame.lines.map((line) => stripVTControlCharacters(line));
          expect(text.length).toBeLessThanOrEqual(rows - 1);
          if (count > 0) expect(text.some((line) => line.startsWith('❯'))).toBe(true);
        },
      ),
    );
  });

  it('stays within the screen for any size, list and focus', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 160 }),
        fc.integer({ min: 10, max: 60 }),
        fc.integer({ min: 1, max: 300 }),
        fc.nat(),
        fc.boolean(),
        fc.string({ maxLength: 300 }),
        (columns, rows, count, seed, allowCustom, question) => {
          const view = questionView({
            question: `Q ${question}`,
            options: options(count).map((option, index) =>
              index % 3 === 0 ? { ...option, description: question.repeat(3) || 'd' } : option,
            ),
            allowCustom,
          });
          const rowsTotal = count + (allowCustom ? 1 : 0);
          const state = { ...stateFor(view), focus: seed % rowsTotal };
          const frame = renderMenu(view, state, { columns, rows }, style);
          expect(frame.lines.length).toBeLessThanOrEqual(rows - 1);
          for (const line of frame.lines) {
            expect(textWidth(stripVTControlCharacters(line))).toBeLessThanOrEqual(columns - 1);
          }
          expect(frame.top).toBeLessThanOrEqual(state.focus);
          expect(frame.top + frame.page).toBeGreaterThan(state.focus);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads no option beyond the window, descriptions included, however long the list', () => {
    const options = Array.from({ length: 10_000 }, (_, index) =>
      index % 2 === 0
        ? { label: `Option ${index + 1}`, description: 'A description of this option.' }
        : { label: `Option ${index + 1}` },
    );
    const view = questionView({ question: 'Pick one', options });
    const read = new Set<number>();
    const counting: QuestionView = {
      ...view,
      label(index) {
        read.add(index);
        return view.label(index);
      },
      description(index) {
        read.add(index);
        return view.description(index);
      },
    };
    let state = withWindow({ ...stateFor(view), focus: 5_000 }, 4_990, 10);
    for (const name of ['down', 'down', 'up', 'pagedown']) {
      state = menuKey(state, { text: undefined, key: { name } }).state;
      const frame = renderMenu(counting, state, { columns: 80, rows: 24 }, style);
      state = withWindow(state, frame.top, frame.page);
    }
    expect(read.size).toBeGreaterThan(0);
    expect(read.size).toBeLessThan(60);
  });

  it('ends the question with … only when lines of it were left out', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('Which', 'language', 'should', 'we', 'use?', 'A', 'service.'), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.boolean(),
        fc.integer({ min: 20, max: 100 }),
        fc.integer({ min: 3, max: 30 }),
        fc.integer({ min: 1, max: 8 }),
        (words, header, columns, rows, count) => {
          const question = words.join(' ');
          const view = questionView({
            ...(header ? { header: 'Header' } : {}),
            question,
            options: options(count).map((option) => ({ ...option, description: 'Said.' })),
          });
          const text = renderMenu(view, stateFor(view), { columns, rows }, style).lines.map(
            (line) => stripVTControlCharacters(line),
          );
          const title = text.slice(
            0,
            text.findIndex((line) => line.startsWith('❯')),
          );
          const shown = title.filter((line) => line !== '' && line !== '? Header');
          const read = shown.join(' ').replace(/^\? /, '').replace(/ +/g, ' ').trim();
          if (read.endsWith('…')) {
            const kept = read.slice(0, -1).trim();
            expect(question.startsWith(kept)).toBe(true);
            expect(kept.length).toBeLessThan(question.length);
          } else if (shown.length > 0) {
            expect(read).toBe(question);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the hints on their rows while the focus moves through a list that fits', () => {
    const view = questionView({
      question: 'Pick one',
      options: [
        { label: 'Short', description: 'One line.' },
        { label: 'None' },
        {
          label: 'Long',
          description: 'A description that needs three lines at forty columns, or so it seems.',
        },
      ],
      allowCustom: true,
    });
    let state = stateFor(view);
    const hintsAt: number[] = [];
    for (let key = 0; key < 4; key++) {
      const text = renderMenu(view, state, { columns: 40, rows: 24 }, style).lines.map((line) =>
        stripVTControlCharacters(line),
      );
      hintsAt.push(text.findIndex((line) => line.startsWith('↑↓ move')));
      state = menuKey(state, { text: undefined, key: { name: 'down' } }).state;
    }
    expect(new Set(hintsAt).size).toBe(1);
    expect(hintsAt[0]).toBeGreaterThan(0);
  });

  it('gives the details pane none of the rows of a cut question or of a list at its minimum', () => {
    const question = Array.from({ length: 12 }, (_, index) => `Line ${index + 1}.`).join('\n');
    const view = questionView({
      question,
      options: options(6).map((option, index) =>
        index === 1 ? option : { ...option, description: 'Four lines\nof\ndetails\nhere.' },
      ),
    });
    for (const focus of [0, 1]) {
      const text = renderMenu(
        view,
        { ...stateFor(view), focus },
        { columns: 60, rows: 12 },
        style,
      ).lines.map((line) => stripVTControlCharacters(line));
      expect(text).toHaveLength(11);
      expect(text.filter((line) => /^(❯ | {2})\d\. Option/.test(line))).toHaveLength(MIN_LIST_ROWS);
      expect(text.some((line) => line.includes('details') || line.includes('Four'))).toBe(false);
      expect(text.filter((line) => line === '')).toEqual([]);
    }
  });
});

describe('hintLines', () => {
  const view = questionView({ question: 'Pick', options: options(4), allowCustom: true });
  const plain = (lines: string[]) => lines.map((line) => stripVTControlCharacters(line));

  it('wraps every hint when the lines are not limited', () => {
    expect(plain(hintLines(view, stateFor(view), 40, style))).toEqual([
      '↑↓ move · Enter select · 1-4 choose',
      'or type an answer · Esc decline',
      'Ctrl+C cancel',
    ]);
  });

  it('leaves out the least needed hints to fit one line, and takes back those that still fit', () => {
    expect(plain(hintLines(view, stateFor(view), 40, style, 1))).toEqual([
      '↑↓ move · Enter select · Esc decline',
    ]);
    expect(plain(hintLines(view, stateFor(view), 50, style, 1))).toEqual([
      '↑↓ move · Enter select · 1-4 choose · Esc decline',
    ]);
    expect(plain(hintLines(view, stateFor(view), 40, style, 2))).toEqual([
      '↑↓ move · Enter select · 1-4 choose',
      'Esc decline · Ctrl+C cancel',
    ]);
    expect(plain(hintLines(view, stateFor(view), 12, style, 1))).toEqual(['Enter select']);
    expect(hintLines(view, stateFor(view), 40, style, 0)).toEqual([]);
  });

  it('always keeps the number being typed', () => {
    const long = questionView({ question: 'Pick', options: options(40) });
    const state = menuKey(stateFor(long), { text: '3', key: { name: '3' } }).state;
    expect(plain(hintLines(long, state, 30, style, 1))).toEqual(['Option 3 · Enter choose']);
  });
});

describe('planMenu', () => {
  const needs = fc.record({
    height: fc.integer({ min: 1, max: 40 }),
    rows: fc.integer({ min: 1, max: 60 }),
    header: fc.boolean(),
    questionRows: fc.integer({ min: 1, max: 30 }),
    noticeRows: fc.integer({ min: 0, max: 1 }),
    hintRows: fc.integer({ min: 1, max: 3 }),
    detailRows: fc.integer({ min: 0, max: 8 }),
    tallest: fc.integer({ min: 0, max: 8 }),
  });

  function plan(input: Omit<MenuNeeds, 'tallestDetails'> & { tallest: number }) {
    let asked = false;
    const tallest = Math.max(input.tallest, input.detailRows);
    const result = planMenu({
      ...input,
      tallestDetails: () => {
        asked = true;
        return tallest;
      },
    });
    const used =
      (result.header ? 1 : 0) +
      result.questionRows +
      (result.gap ? 1 : 0) +
      result.visible +
      (result.indicator ? 1 : 0) +
      (result.paneRows > 0 ? result.paneRows + 1 : 0) +
      result.noticeRows +
      result.hintRows;
    return { result, used, asked };
  }

  it('never takes more rows than the screen has, and always shows the focused row', () => {
    fc.assert(
      fc.property(needs, (input) => {
        const { result, used } = plan(input);
        expect(used).toBeLessThanOrEqual(input.height);
        expect(result.visible).toBeGreaterThanOrEqual(1);
        expect(result.visible).toBeLessThanOrEqual(input.rows);
        expect(result.questionRows).toBeLessThanOrEqual(input.questionRows);
        expect(result.hintRows).toBeLessThanOrEqual(input.hintRows);
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves no row unused while rows of the list are hidden or the question is cut', () => {
    fc.assert(
      fc.property(needs, (input) => {
        const { result, used, asked } = plan(input);
        if (result.visible < input.rows || result.questionRows < input.questionRows) {
          expect(used).toBe(input.height);
          expect(result.paneRows).toBeLessThanOrEqual(input.detailRows);
        }
        // The tallest details of every option are read only when every option is on screen.
        if (asked) expect(result.visible).toBe(input.rows);
      }),
      { numRuns: 2_000 },
    );
  });

  it('shows the whole question when it fits beside the focused row and one line of hints', () => {
    fc.assert(
      fc.property(needs, (input) => {
        const { result } = plan(input);
        const least =
          (input.header ? 1 : 0) +
          input.questionRows +
          1 +
          (input.rows > 1 ? 1 : 0) +
          input.noticeRows +
          1;
        if (least <= input.height) {
          expect(result.questionRows).toBe(input.questionRows);
          expect(result.header).toBe(input.header);
          expect(result.hintRows).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives the pane more than the focused option needs only when nothing else is short', () => {
    fc.assert(
      fc.property(needs, (input) => {
        const { result } = plan(input);
        if (result.paneRows > input.detailRows) {
          expect(result.visible).toBe(input.rows);
          expect(result.questionRows).toBe(input.questionRows);
          expect(result.hintRows).toBe(input.hintRows);
          expect(result.gap).toBe(true);
        }
        // Details never take the rows of the list's minimum.
        if (result.paneRows > 0) {
          expect(result.visible).toBeGreaterThanOrEqual(Math.min(input.rows, MIN_LIST_ROWS));
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
