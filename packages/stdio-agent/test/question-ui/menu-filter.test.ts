import { describe, expect, it } from 'vitest';
import { listRows, optionAtRow, typedAnswer } from '../../src/question-ui/menu/menu-filter.js';
import { initialMenuState, menuKeys } from '../../src/question-ui/menu/menu-state.js';
import type { MenuState } from '../../src/question-ui/menu/menu-types.js';
import { filterOptions, optionSearch } from '../../src/question-ui/menu/option-search.js';
import { key, runMenu as run, typing } from '../support/key-presses.js';

const CITIES = ['Café Paris', 'Straße Berlin', 'Cafeteria', 'Oslo', 'Łódź', 'ＴＯＫＹＯ'];

function list(
  labels: readonly string[],
  options: { allowCustom?: boolean; multiSelect?: boolean; descriptions?: string[] } = {},
): MenuState {
  return initialMenuState({
    optionCount: labels.length,
    allowCustom: options.allowCustom ?? false,
    recommended: -1,
    multiSelect: options.multiSelect ?? false,
    search: optionSearch(labels.length, (index) => [
      labels[index] as string,
      options.descriptions?.[index],
    ]),
  });
}

/** The options shown, by their original numbers. */
function shown(state: MenuState): number[] {
  const numbers: number[] = [];
  for (let row = 0; row < listRows(state); row++) {
    const option = optionAtRow(state, row);
    if (option < state.optionCount) numbers.push(option + 1);
  }
  return numbers;
}

describe('typing to filter a list', () => {
  it('narrows case- and accent-insensitively, focusing the first match; Enter picks it', () => {
    const typed = run(list(CITIES), ...typing('cafe'));
    expect(shown(typed.state)).toEqual([1, 3]);
    expect(typed.state.focus).toBe(0);
    expect(typed.state.mode).toBe('menu');
    expect(run(typed.state, key('return')).outcome).toEqual({ kind: 'option', index: 0 });
    expect(run(typed.state, key('down'), key('return')).outcome).toEqual({
      kind: 'option',
      index: 2,
    });
  });

  it('finds "ss" in "Straße", "lodz" in "Łódź", "tokyo" in full-width letters', () => {
    expect(shown(run(list(CITIES), ...typing('strasse')).state)).toEqual([2]);
    expect(shown(run(list(CITIES), ...typing('LODZ')).state)).toEqual([5]);
    expect(shown(run(list(CITIES), ...typing('tokyo')).state)).toEqual([6]);
  });

  it('searches the descriptions too', () => {
    const state = list(['Postgres', 'SQLite'], { descriptions: ['Relational', 'A single file'] });
    expect(shown(run(state, ...typing('file')).state)).toEqual([2]);
  });

  it('widens with Backspace, keeping the focused option while it matches', () => {
    const typed = run(list(CITIES), ...typing('cafet')).state;
    expect(shown(typed)).toEqual([3]);
    const widened = run(typed, key('backspace')).state;
    expect(shown(widened)).toEqual([1, 3]);
    expect(widened.focus).toBe(2);
    const cleared = run(widened, ...Array(4).fill(key('backspace'))).state;
    expect(cleared.filter).toBeUndefined();
    expect(shown(cleared)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(cleared.focus).toBe(2);
  });

  it('clears the filter with Esc, the focus kept; a second Esc declines', () => {
    const typed = run(list(CITIES), ...typing('o'), key('down')).state;
    expect(typed.focus).toBe(4);
    const cleared = run(typed, key('escape'));
    expect(cleared.outcome).toBeUndefined();
    expect(cleared.state.filter).toBeUndefined();
    expect(cleared.state.editor.text).toBe('');
    expect(cleared.state.focus).toBe(4);
    expect(run(cleared.state, key('escape')).outcome).toEqual({ kind: 'decline' });
  });

  it('moves among the matches only, wrapping at both ends', () => {
    const typed = run(list(CITIES), ...typing('o')).state;
    expect(shown(typed)).toEqual([4, 5, 6]);
    expect(run(typed, key('up')).state.focus).toBe(5);
    expect(run(typed, key('down'), key('down'), key('down')).state.focus).toBe(3);
    expect(run(typed, key('end')).state.focus).toBe(5);
    expect(run(typed, key('end'), key('home')).state.focus).toBe(3);
  });

  it('holds digits as an original number until Enter; text after them takes them as text', () => {
    const labels = ['Node 18', 'Node 20', 'Deno', 'Node 22'];
    const typed = run(list(labels), ...typing('node')).state;
    const held = run(typed, ...typing('4')).state;
    expect(held.digits).toBe('4');
    expect(held.focus).toBe(3);
    expect(run(held, key('return')).outcome).toEqual({ kind: 'option', index: 3 });
    // "node 2": the 2 numbers option 2, shown; "0" after it makes "20" text.
    const twenty = run(typed, ...typing(' 20')).state;
    expect(twenty.digits).toBe('');
    expect(twenty.editor.text).toBe('node 20');
    expect(shown(twenty)).toEqual([2]);
  });

  it('takes digits that number no row shown as text when Enter comes', () => {
    const labels = ['Room 1', 'Hall', 'Room 2B'];
    const typed = run(list(labels), ...typing('room'), ...typing(' 2')).state;
    // Option 2 (Hall) is not shown: Enter takes "2" as text, and picks what "room 2" matches.
    expect(typed.digits).toBe('2');
    const entered = run(typed, key('return'));
    expect(entered.outcome).toEqual({ kind: 'option', index: 2 });
  });

  it('says so when nothing matches in a list without typed answers, and Enter answers nothing', () => {
    const typed = run(list(CITIES), ...typing('xyz')).state;
    expect(listRows(typed)).toBe(0);
    const entered = run(typed, key('return'));
    expect(entered.outcome).toBeUndefined();
    expect(entered.state.notice).toEqual({ kind: 'no-match' });
    expect(run(typed, key('down')).state).toEqual({ ...typed, notice: undefined });
  });

  it('narrows a long filter from the matches before it, and goes back to them on Backspace', () => {
    const search = optionSearch(3, (index) => [['abc', 'abd', 'xyz'][index] as string, undefined]);
    const a = filterOptions(search, 'a', undefined);
    const ab = filterOptions(search, 'ab', a);
    const abc = filterOptions(search, 'abc', ab);
    expect([a.matches, ab.matches, abc.matches]).toEqual([[0, 1], [0, 1], [0]]);
    expect(ab.previous).toBe(a);
    expect(filterOptions(search, 'ab', abc)).toBe(ab);
    expect(filterOptions(search, 'b', abc).matches).toEqual([0, 1]);
  });
});

describe('typing in a list that takes a typed answer', () => {
  it('narrows the list; Enter on a text that matches nothing sends it', () => {
    const typed = run(list(CITIES, { allowCustom: true }), ...typing('Rome'));
    expect(shown(typed.state)).toEqual([]);
    expect(typed.state.mode).toBe('editor');
    expect(typed.state.focus).toBe(CITIES.length);
    expect(run(typed.state, key('return')).outcome).toEqual({ kind: 'text', text: 'Rome' });
  });

  it('picks the focused match with Enter while the text matches', () => {
    const typed = run(list(CITIES, { allowCustom: true }), ...typing('osl'));
    expect(typed.state.mode).toBe('menu');
    expect(run(typed.state, key('return')).outcome).toEqual({ kind: 'option', index: 3 });
  });

  it('sends the text itself from the custom row under the matches, digits and all', () => {
    const state = list(CITIES, { allowCustom: true });
    const onRow = run(state, ...typing('cafe'), key('end')).state;
    expect(onRow.mode).toBe('editor');
    expect(shown(onRow)).toEqual([1, 3]);
    const typed = run(onRow, ...typing(' 24'));
    expect(typed.state.editor.text).toBe('cafe 24');
    expect(run(typed.state, key('return')).outcome).toEqual({ kind: 'text', text: 'cafe 24' });
  });

  it('types into the answer on the typed-answer row, the list narrowing under it', () => {
    const onRow = run(list(CITIES, { allowCustom: true }), key('end')).state;
    expect(onRow.mode).toBe('menu');
    const typed = run(onRow, ...typing('cafe')).state;
    expect(typed.mode).toBe('editor');
    expect(typed.focus).toBe(CITIES.length);
    expect(shown(typed)).toEqual([1, 3]);
    expect(run(typed, key('return')).outcome).toEqual({ kind: 'text', text: 'cafe' });
  });

  it('goes back up to the matches from the editor, or to the whole list when none match', () => {
    const state = list(CITIES, { allowCustom: true });
    const up = run(state, ...typing('cafe'), key('end'), key('up')).state;
    expect(up.mode).toBe('menu');
    expect(up.focus).toBe(2);
    expect(shown(up)).toEqual([1, 3]);
    const none = run(state, ...typing('rome'), key('up')).state;
    expect(none.filter).toBeUndefined();
    expect(none.focus).toBe(CITIES.length - 1);
    expect(none.editor.text).toBe('rome');
  });

  it('leaves the editor with Esc for the whole list, the draft kept', () => {
    const back = run(list(CITIES, { allowCustom: true }), ...typing('rome'), key('escape')).state;
    expect(back.mode).toBe('menu');
    expect(back.filter).toBeUndefined();
    expect(typedAnswer(back)).toBe('rome');
  });

  it('pastes into the filter at once, digits as text', () => {
    const paste = menuKeys(list(CITIES, { allowCustom: true }), [
      key('paste-start'),
      ...typing('Cafe 1'),
      key('paste-end'),
    ]);
    expect(paste.state.editor.text).toBe('Cafe 1');
    expect(paste.state.mode).toBe('editor');
  });
});

describe('typing to filter a list of several choices', () => {
  it('ticks nothing with Space when nothing matches: no option out of sight is ticked', () => {
    const typed = run(list(CITIES, { multiSelect: true }), ...typing('xyz')).state;
    expect(listRows(typed)).toBe(0);
    const spaced = run(typed, ...typing(' ')).state;
    expect(spaced.ticked.size).toBe(0);
    expect(spaced.editor.text).toBe('xyz ');
  });

  it('ticks the focused match with Space or Enter and clears the filter, which is never an answer', () => {
    const state = list(CITIES, { multiSelect: true, allowCustom: true });
    const typed = run(state, ...typing('oslo')).state;
    expect(typedAnswer(typed)).toBe('');
    const ticked = run(typed, ...typing(' ')).state;
    expect([...ticked.ticked]).toEqual([3]);
    expect(ticked.filter).toBeUndefined();
    expect(ticked.editor.text).toBe('');
    const entered = run(state, ...typing('lodz'), key('return')).state;
    expect([...entered.ticked]).toEqual([4]);
    expect(run(entered, key('return')).outcome).toEqual({ kind: 'confirm' });
  });
});
