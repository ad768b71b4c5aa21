import { LONGEST_ANSWER } from '../answer-limit.js';
import type { EditorState } from '../editor/editor-state.js';
import { EMPTY_EDITOR, insertText } from '../editor/editor-state.js';
import { graphemeCut } from '../editor/grapheme-window.js';
import type { MenuOutcome, MenuState, MenuStep } from './menu-types.js';

/** The next state: the changes, and the notice gone (a notice lasts until the next key). */
export function step(state: MenuState, changes: Partial<MenuState> = {}): MenuStep {
  return { state: { ...state, notice: undefined, ...changes } };
}

/** The key ended the question. */
export function end(state: MenuState, outcome: MenuOutcome): MenuStep {
  return { state, outcome };
}

/** The editor without its text (what was cut stays, for Ctrl+Y). */
export function clearedText(state: MenuState): EditorState {
  return { ...EMPTY_EDITOR, killed: state.editor.killed };
}

/**
 * Inserts text at the editor's cursor, keeping the draft within the longest answer the
 * contract allows: what does not fit is left out (never splitting a character), and a
 * notice says so.
 */
export function insertWithin(
  state: MenuState,
  inserted: string,
  pasted: boolean,
): Partial<MenuState> {
  const { editor } = state;
  const room = LONGEST_ANSWER - editor.text.length;
  if (inserted.length <= room) return { editor: insertText(editor, inserted) };
  const kept = inserted.slice(0, graphemeCut(inserted, Math.max(0, room)));
  return { editor: insertText(editor, kept), notice: { kind: 'answer-limit', pasted } };
}
