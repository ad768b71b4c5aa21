import type { MenuState } from './menu-types.js';
import { filterOptions, matchPosition } from './option-search.js';

// The list as shown: every option, or the filter's matches, in list order, then the custom row.
// Rows are counted by position on screen; `focus` stays an option's index (its number - 1).

/** Rows of the list as shown: the matches (every option without a filter), and the custom row. */
export function listRows(state: MenuState): number {
  const options = state.filter === undefined ? state.optionCount : state.filter.matches.length;
  return options + (state.customRow ? 1 : 0);
}

/** The option on row `row` of the list as shown; the custom row is `optionCount`. */
export function optionAtRow(state: MenuState, row: number): number {
  const { filter } = state;
  if (filter === undefined) return row;
  return row < filter.matches.length ? (filter.matches[row] as number) : state.optionCount;
}

/** The row the focus is on in the list as shown (0 when the focused option is not shown). */
export function rowOfFocus(state: MenuState): number {
  const { filter } = state;
  if (filter === undefined) return state.focus;
  if (state.focus === state.optionCount) return filter.matches.length;
  return Math.max(0, matchPosition(filter, state.focus));
}

/** Whether option `index` is a row of the list as shown. */
export function isShown(state: MenuState, index: number): boolean {
  if (index < 0 || index >= state.optionCount) return false;
  return state.filter === undefined || matchPosition(state.filter, index) >= 0;
}

/**
 * The typed text that is an answer: none while it is a search (typed from the list, the
 * focus on an option), the draft otherwise.
 */
export function typedAnswer(state: MenuState): string {
  return state.mode === 'menu' && state.filter !== undefined ? '' : state.editor.text;
}

/**
 * The state with its filter following the typed text: narrowed (or widened) to the options
 * that contain it, or none when the text is empty or the options cannot be searched.
 */
export function refiltered(state: MenuState): MenuState {
  const { search, editor } = state;
  if (search === undefined || editor.text === '') {
    return state.filter === undefined ? state : { ...state, filter: undefined };
  }
  const filter = filterOptions(search, editor.text, state.filter);
  return filter === state.filter ? state : { ...state, filter };
}

/**
 * After the search changed: the focus on the first match (or on the option it is on, when
 * `keep` and it still matches); with no match, on the custom row, in its editor, if any.
 */
export function focusMatch(state: MenuState, keep: boolean): MenuState {
  const { filter } = state;
  if (filter === undefined) return state;
  if (keep && state.mode === 'menu' && isShown(state, state.focus)) return state;
  const first = filter.matches[0];
  if (first !== undefined) return { ...state, mode: 'menu', focus: first };
  if (state.customRow) return { ...state, mode: 'editor', focus: state.optionCount };
  return state;
}
