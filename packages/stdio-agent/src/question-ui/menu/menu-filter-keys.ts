import type { EditorState } from '../editor/editor-state.js';
import { isKey, type KeyPress } from '../terminal/key.js';
import { focusMatch, isShown, refiltered } from './menu-filter.js';
import { clearedText, insertWithin, step } from './menu-step.js';
import type { MenuState, MenuStep } from './menu-types.js';

// What keys do to a filter typed in the list; `menuKey` decides when they apply.

/** Esc on a filter: the whole list again, the focus where it was. */
export function clearFilter(state: MenuState): MenuStep {
  return step(state, { filter: undefined, editor: clearedText(state), digits: '' });
}

/**
 * Text typed in the list while it can be searched: added to the typed text, which narrows the
 * list; the focus goes to the first match, or to the custom row's editor when none matches.
 */
export function typeFilter(state: MenuState, typed: string, pasted = false): MenuStep {
  const changes = insertWithin(state, typed, pasted);
  const next = refiltered({ ...state, ...changes, digits: '', mode: 'menu' });
  return { state: focusMatch({ ...next, notice: changes.notice }, false) };
}

/** The typed text edited (Backspace, Ctrl+W, Ctrl+U) from the list: the list widens. */
export function editFilter(state: MenuState, editor: EditorState): MenuStep {
  const next = refiltered({ ...state, editor, digits: '', notice: undefined });
  return { state: focusMatch(next, true) };
}

/**
 * A digit typed while a filter is on: held, as the number of an option (the focus goes to it
 * when it is shown) until Enter chooses it; text typed after it takes it as text.
 */
export function holdDigit(state: MenuState, digit: string): MenuStep {
  const digits = state.digits + digit;
  const number = Number(digits);
  if (number < 1 || digits.length > String(state.optionCount).length) {
    return typeFilter(state, digits);
  }
  return step(state, { digits, focus: isShown(state, number - 1) ? number - 1 : state.focus });
}

/** The keys that edit a filter from the list: Backspace, Ctrl+W and Ctrl+U. */
export function isFilterEdit(press: KeyPress): boolean {
  const { key } = press;
  return (
    isKey(key, 'backspace') || isKey(key, 'w', { ctrl: true }) || isKey(key, 'u', { ctrl: true })
  );
}
