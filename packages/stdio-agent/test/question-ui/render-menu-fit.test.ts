import { stripVTControlCharacters } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_LIST_ROWS } from '../../src/question-ui/menu/menu-layout.js';
import { menuKey, withWindow } from '../../src/question-ui/menu/menu-state.js';
import { renderMenu } from '../../src/question-ui/menu/render-menu.js';
import { type QuestionView, questionView } from '../../src/question-ui/question-view.js';
import { textWidth } from '../../src/text/text-width.js';
import { options, stateFor, style } from '../support/menu-frames.js';

describe('renderMenu', () => {
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
