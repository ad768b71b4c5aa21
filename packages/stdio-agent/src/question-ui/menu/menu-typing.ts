import type { EditorState } from '../editor/editor-state.js';
import type { KeyPress } from '../terminal/key.js';
import { refiltered } from './menu-filter.js';
import { typeFilter } from './menu-filter-keys.js';
import { insertWithin, step } from './menu-step.js';
import type { MenuState, MenuStep } from './menu-types.js';

// Text into a question: typed into its editor, or pasted at once.

/** The editor open on the custom row, holding `editor`. */
export function openEditor(state: MenuState, editor: EditorState): MenuStep {
  return step(state, { mode: 'editor', focus: state.optionCount, digits: '', editor });
}

/** Typed text (or a yank) into the editor, opening it from the menu; the list follows it. */
export function typeInto(state: MenuState, typed: string, pasted = false): MenuStep {
  const changes = insertWithin(state, typed, pasted);
  if (state.mode === 'editor') return { state: refiltered(step(state, changes).state) };
  const opened = openEditor(state, state.editor).state;
  return { state: refiltered({ ...opened, ...changes }) };
}

// Pasted text is one line: a line break (CR, LF or both) and a tab become a space. Every
// other character is kept as pasted; the editor shows control characters inert.
const PASTED_BREAK = /\r\n|[\r\n\t]/g;
const SEQUENCE_OF: Record<string, string> = { return: '\r', enter: '\n', tab: '\t' };

/** The characters a key inside a paste stands for: its raw sequence, escapes included. */
export function pastedSequence(press: KeyPress): string {
  const { key, text } = press;
  return key.sequence ?? text ?? SEQUENCE_OF[key.name ?? ''] ?? '';
}

/** Text pasted at once: into the editor (opened if needed), or refused without custom answers. */
export function paste(state: MenuState, raw: string): MenuStep {
  const text = raw.replace(PASTED_BREAK, ' ');
  if (text === '') return { state };
  if (state.mode === 'menu' && state.search !== undefined) return typeFilter(state, text, true);
  if (state.mode === 'menu' && !state.customRow) {
    return step(state, { notice: { kind: 'options-only' } });
  }
  return typeInto(state, text, true);
}
