import { isKey, type KeyPress, typedText } from '../terminal/key.js';
import { nextGraphemeEnd, previousGraphemeStart } from './grapheme-window.js';

/** The state of the inline line editor: its text, the cursor (a UTF-16 index) and the last cut. */
export interface EditorState {
  readonly text: string;
  readonly cursor: number;
  readonly killed: string;
}

/** An empty editor. */
export const EMPTY_EDITOR: EditorState = { text: '', cursor: 0, killed: '' };

/** An editor holding `text` with the cursor at its end. */
export function editorWith(text: string): EditorState {
  return { text, cursor: text.length, killed: '' };
}

function wordLeft(text: string, cursor: number): number {
  let index = cursor;
  while (index > 0 && /\s/.test(text[index - 1] as string)) index--;
  while (index > 0 && !/\s/.test(text[index - 1] as string)) index--;
  return index;
}

function wordRight(text: string, cursor: number): number {
  let index = cursor;
  while (index < text.length && /\s/.test(text[index] as string)) index++;
  while (index < text.length && !/\s/.test(text[index] as string)) index++;
  return index;
}

function moveTo(editor: EditorState, cursor: number): EditorState {
  return cursor === editor.cursor ? editor : { ...editor, cursor };
}

/** Removes text[from, to) and moves the cursor to `from`; a kill also keeps it for Ctrl+Y. */
function cut(editor: EditorState, from: number, to: number, kill: boolean): EditorState {
  if (from === to) return editor;
  const { text } = editor;
  return {
    text: text.slice(0, from) + text.slice(to),
    cursor: from,
    killed: kill ? text.slice(from, to) : editor.killed,
  };
}

/** Inserts text at the cursor. */
export function insertText(editor: EditorState, inserted: string): EditorState {
  const { text, cursor } = editor;
  return {
    ...editor,
    text: text.slice(0, cursor) + inserted + text.slice(cursor),
    cursor: cursor + inserted.length,
  };
}

/**
 * Applies one keypress with the usual readline editing keys. Returns the new editor, or
 * undefined when the key is not an editing key (Enter, Esc, arrows up and down…).
 */
export function editorKey(editor: EditorState, press: KeyPress): EditorState | undefined {
  const { key } = press;
  const { text, cursor } = editor;
  const typed = typedText(press);
  if (typed !== undefined) return insertText(editor, typed);
  if (isKey(key, 'left') || isKey(key, 'b', { ctrl: true })) {
    return moveTo(editor, previousGraphemeStart(text, cursor));
  }
  if (isKey(key, 'right') || isKey(key, 'f', { ctrl: true })) {
    return moveTo(editor, nextGraphemeEnd(text, cursor));
  }
  if (isKey(key, 'home') || isKey(key, 'a', { ctrl: true })) return moveTo(editor, 0);
  if (isKey(key, 'end') || isKey(key, 'e', { ctrl: true })) return moveTo(editor, text.length);
  if (
    isKey(key, 'left', { ctrl: true }) ||
    isKey(key, 'left', { meta: true }) ||
    isKey(key, 'b', { meta: true })
  ) {
    return moveTo(editor, wordLeft(text, cursor));
  }
  if (
    isKey(key, 'right', { ctrl: true }) ||
    isKey(key, 'right', { meta: true }) ||
    isKey(key, 'f', { meta: true })
  ) {
    return moveTo(editor, wordRight(text, cursor));
  }
  if (isKey(key, 'backspace') || isKey(key, 'h', { ctrl: true })) {
    return cut(editor, previousGraphemeStart(text, cursor), cursor, false);
  }
  if (isKey(key, 'delete') || isKey(key, 'd', { ctrl: true })) {
    return cut(editor, cursor, nextGraphemeEnd(text, cursor), false);
  }
  if (isKey(key, 'u', { ctrl: true })) return cut(editor, 0, cursor, true);
  if (isKey(key, 'k', { ctrl: true })) return cut(editor, cursor, text.length, true);
  if (
    isKey(key, 'w', { ctrl: true }) ||
    isKey(key, 'backspace', { meta: true }) ||
    isKey(key, 'backspace', { ctrl: true })
  ) {
    return cut(editor, wordLeft(text, cursor), cursor, true);
  }
  if (isKey(key, 'd', { meta: true }) || isKey(key, 'delete', { ctrl: true })) {
    return cut(editor, cursor, wordRight(text, cursor), true);
  }
  if (isKey(key, 'y', { ctrl: true })) return insertText(editor, editor.killed);
  return undefined;
}
