import { isBlankText } from 'dsh-user-interaction/provider';
import { LONGEST_ANSWER } from '../answer-limit.js';
import { EMPTY_EDITOR, editorKey } from '../editor/editor-state.js';
import { isKey, type KeyPress, typedText } from '../terminal/key.js';
import { isPastedKey, pasteBound, pastingAfter } from '../terminal/paste-keys.js';
import {
  isShown,
  listRows,
  optionAtRow,
  refiltered,
  rowOfFocus,
  typedAnswer,
} from './menu-filter.js';
import {
  clearFilter,
  editFilter,
  holdDigit,
  isFilterEdit,
  typeFilter,
} from './menu-filter-keys.js';
import { clearedText, end, step } from './menu-step.js';
import type { MenuSetup, MenuState, MenuStep } from './menu-types.js';
import { openEditor, paste, pastedSequence, typeInto } from './menu-typing.js';

const NONE_TICKED: ReadonlySet<number> = new Set();

/** Most options a single digit can choose at once. */
const SINGLE_DIGIT_OPTIONS = 9;

/** The state a question starts in: the recommended option focused, or the editor when free-form. */
export function initialMenuState(setup: MenuSetup): MenuState {
  const freeForm = setup.optionCount === 0;
  return {
    optionCount: setup.optionCount,
    customRow: setup.allowCustom && !freeForm,
    focus: Math.max(setup.recommended, 0),
    top: 0,
    page: 1,
    digits: '',
    mode: freeForm ? 'editor' : 'menu',
    editor: EMPTY_EDITOR,
    notice: undefined,
    pasting: false,
    multiSelect: setup.multiSelect === true && !freeForm,
    ticked: NONE_TICKED,
    chosen: -1,
    marks: (setup.multiSelect === true || setup.marks === true) && !freeForm,
    search: freeForm ? undefined : setup.search,
    filter: undefined,
  };
}

/**
 * The option at `index` ticked if it was not, and not if it was; the focus goes to it. A
 * filter has found what it was typed for: it is cleared, so that it never becomes an answer.
 */
function toggle(state: MenuState, index: number): MenuStep {
  // A copy per toggle: the ticks stay a value, and a toggle costs what is ticked, not the list.
  const ticked = new Set(state.ticked);
  if (ticked.has(index)) ticked.delete(index);
  else ticked.add(index);
  const cleared =
    state.filter === undefined ? {} : { filter: undefined, editor: clearedText(state) };
  return step(state, { ticked, focus: index, digits: '', ...cleared });
}

/** Enter in a question with several choices: its ticks and draft, unless there is neither. */
function confirm(state: MenuState): MenuStep {
  const text = typedAnswer(state).trim();
  if (text.length > LONGEST_ANSWER) {
    return step(state, { notice: { kind: 'answer-too-long', length: text.length } });
  }
  if (state.ticked.size === 0 && isBlankText(text)) {
    return step(state, { notice: { kind: 'nothing-ticked' } });
  }
  return end(state, { kind: 'confirm' });
}

/** True when the question has no options: it is a line editor only. */
export function isFreeForm(state: MenuState): boolean {
  return state.optionCount === 0;
}

/** The focus on row `row` of the list as shown; on the custom row with a filter, its editor. */
function focusRow(state: MenuState, row: number): MenuStep {
  const focus = optionAtRow(state, row);
  if (focus === state.optionCount && state.filter !== undefined) {
    return openEditor(state, state.editor);
  }
  return step(state, { focus, digits: '' });
}

function chooseDigit(state: MenuState, digit: string): MenuStep {
  if (state.optionCount <= SINGLE_DIGIT_OPTIONS) {
    const number = Number(digit);
    if (number >= 1 && number <= state.optionCount) {
      if (state.multiSelect) return toggle(state, number - 1);
      return end(step(state, { focus: number - 1 }).state, { kind: 'option', index: number - 1 });
    }
    return step(state, { notice: { kind: 'no-option', number: digit } });
  }
  const digits = state.digits + digit;
  const number = Number(digits);
  if (number < 1 || number > state.optionCount) {
    return step(state, { notice: { kind: 'no-option', number: digits } });
  }
  return step(state, { digits, focus: number - 1 });
}

/** Enter in the list. */
function enterInMenu(state: MenuState, press: KeyPress): MenuStep {
  if (state.digits !== '') {
    const numbered = Number(state.digits) - 1;
    // With a filter, digits that number no row shown were text after all.
    if (state.filter !== undefined && !isShown(state, numbered)) {
      const typed = typeFilter({ ...state, digits: '' }, state.digits).state;
      return typed.mode === 'editor' ? editorModeKey(typed, press) : menuModeKey(typed, press);
    }
    if (state.multiSelect) return toggle(state, numbered);
    return end(state, { kind: 'option', index: numbered });
  }
  if (listRows(state) === 0) return step(state, { notice: { kind: 'no-match' } });
  if (state.focus === state.optionCount) return openEditor(state, state.editor);
  if (state.multiSelect && state.filter !== undefined) return toggle(state, state.focus);
  if (state.multiSelect) return confirm(state);
  return end(state, { kind: 'option', index: state.focus });
}

function menuModeKey(state: MenuState, press: KeyPress): MenuStep {
  const { key } = press;
  const rows = listRows(state);
  const row = rowOfFocus(state);
  const tab = isKey(key, 'tab');
  const up = isKey(key, 'up') || isKey(key, 'p', { ctrl: true }) || (tab && key.shift === true);
  const down = isKey(key, 'down') || isKey(key, 'n', { ctrl: true }) || tab;
  const moves =
    up || down || ['home', 'end', 'pageup', 'pagedown'].some((name) => isKey(key, name));
  if (moves && rows === 0) return step(state);
  if (up) return focusRow(state, (row - 1 + rows) % rows);
  if (down) return focusRow(state, (row + 1) % rows);
  if (isKey(key, 'home')) return focusRow(state, 0);
  if (isKey(key, 'end')) return focusRow(state, rows - 1);
  if (isKey(key, 'pageup')) return focusRow(state, Math.max(0, row - state.page));
  if (isKey(key, 'pagedown')) return focusRow(state, Math.min(rows - 1, row + state.page));
  if (key.name === 'escape') {
    if (state.digits !== '') return step(state, { digits: '' });
    if (state.filter !== undefined) return clearFilter(state);
    return end(state, { kind: 'decline' });
  }
  if (isKey(key, 'backspace') && state.digits !== '') {
    const digits = state.digits.slice(0, -1);
    const numbered = Number(digits) - 1;
    const focus = digits !== '' && isShown(state, numbered) ? numbered : state.focus;
    return step(state, { digits, focus });
  }
  if (isKey(key, 'return') || isKey(key, 'enter')) return enterInMenu(state, press);
  if (state.filter !== undefined && isFilterEdit(press)) {
    return editFilter(state, editorKey(state.editor, press) ?? state.editor);
  }
  const typed = typedText(press);
  if (typed === undefined) return step(state);
  if (/^[0-9]$/.test(typed)) {
    return state.filter === undefined ? chooseDigit(state, typed) : holdDigit(state, typed);
  }
  // Space ticks the focused option; on the typed-answer row it is text like any other.
  if (typed === ' ' && state.multiSelect && isShown(state, state.focus)) {
    return toggle(state, state.focus);
  }
  // On the typed-answer row, what is typed is the answer (the list still narrows as it goes).
  if (state.search !== undefined && state.focus < state.optionCount) {
    return typeFilter(state, state.digits + typed);
  }
  if (!state.customRow) return step(state, { notice: { kind: 'options-only' } });
  return typeInto(state, typed);
}

function editorModeKey(state: MenuState, press: KeyPress): MenuStep {
  const { key } = press;
  if (state.multiSelect && (isKey(key, 'return') || isKey(key, 'enter'))) return confirm(state);
  if (isKey(key, 'return') || isKey(key, 'enter')) {
    const text = state.editor.text.trim();
    if (isBlankText(text)) return step(state, { notice: { kind: 'blank' } });
    if (text.length > LONGEST_ANSWER) {
      return step(state, { notice: { kind: 'answer-too-long', length: text.length } });
    }
    return end(state, { kind: 'text', text });
  }
  if (key.name === 'escape') {
    if (isFreeForm(state)) return end(state, { kind: 'decline' });
    // Back to the whole list; the draft stays on the custom row.
    return step(state, { mode: 'menu', filter: undefined });
  }
  if (!isFreeForm(state)) {
    const up = isKey(key, 'up') || isKey(key, 'p', { ctrl: true });
    const down = isKey(key, 'down') || isKey(key, 'n', { ctrl: true });
    // Among the matches when there are some (the text is a search again), else the whole list.
    const matched = state.filter !== undefined && state.filter.matches.length > 0;
    const back = step(state, { mode: 'menu', ...(!matched && { filter: undefined }) }).state;
    if (up || down) return menuModeKey(back, press);
  }
  // What is inserted goes through the limit; every other editing key only moves or removes.
  const typed = typedText(press);
  if (typed !== undefined) return typeInto(state, typed);
  if (isKey(key, 'y', { ctrl: true })) return typeInto(state, state.editor.killed);
  const editor = editorKey(state.editor, press);
  if (editor === undefined) return step(state);
  return { state: refiltered(step(state, { editor }).state) };
}

/** Applies one keypress to the question. Pure: the same state and key give the same step. */
export function menuKey(state: MenuState, press: KeyPress): MenuStep {
  const { key } = press;
  if (isKey(key, 'c', { ctrl: true })) return end(state, { kind: 'cancel' });
  // Ctrl+D quits at the prompt; here it would do nothing, with no word (but delete in a draft).
  const deletes = state.mode === 'editor' && state.editor.text !== '';
  if (isKey(key, 'd', { ctrl: true }) && !deletes)
    return step(state, { notice: { kind: 'end-key' } });
  // The bounds of a paste are not keys the person pressed: a notice stays up across them.
  if (pasteBound(press) !== undefined) {
    return { state: { ...state, pasting: pastingAfter(state.pasting, press) } };
  }
  if (isPastedKey(state.pasting, press)) return paste(state, pastedSequence(press));
  return state.mode === 'editor' ? editorModeKey(state, press) : menuModeKey(state, press);
}

/**
 * Applies the keys of one input chunk in order, stopping at the key that ends the question.
 * The keys of a paste are joined and inserted at once, so a long paste costs one insertion
 * per chunk rather than one per character.
 */
export function menuKeys(state: MenuState, presses: readonly KeyPress[]): MenuStep {
  return menuKeysFrom(state, presses, 0).step;
}

/**
 * `menuKeys` from `presses[start]`, also stopping before a key that `stopBefore` claims (outside
 * a paste): a screen of several questions handles those keys itself. Returns where it stopped.
 */
export function menuKeysFrom(
  state: MenuState,
  presses: readonly KeyPress[],
  start: number,
  stopBefore?: (state: MenuState, press: KeyPress) => boolean,
): { readonly step: MenuStep; readonly end: number } {
  let current: MenuStep = { state };
  let index = start;
  while (index < presses.length) {
    if (isPastedKey(current.state.pasting, presses[index] as KeyPress)) {
      let raw = '';
      while (
        index < presses.length &&
        isPastedKey(current.state.pasting, presses[index] as KeyPress)
      ) {
        raw += pastedSequence(presses[index] as KeyPress);
        index++;
      }
      current = paste(current.state, raw);
      continue;
    }
    if (stopBefore?.(current.state, presses[index] as KeyPress) === true) break;
    current = menuKey(current.state, presses[index] as KeyPress);
    index++;
    if (current.outcome !== undefined) break;
  }
  return { step: current, end: index };
}

/** The state with the window the layout chose. */
export function withWindow(state: MenuState, top: number, page: number): MenuState {
  return state.top === top && state.page === page ? state : { ...state, top, page };
}
