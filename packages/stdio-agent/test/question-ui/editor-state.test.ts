import { beforeAll, describe, expect, it } from 'vitest';
import {
  type EditorState,
  EMPTY_EDITOR,
  editorKey,
  editorWith,
} from '../../src/question-ui/editor/editor-state.js';
import { editorView } from '../../src/question-ui/editor/editor-view.js';
import type { Key } from '../../src/question-ui/terminal/key.js';
import { terminalStyle } from '../../src/text/terminal-style.js';
import { loadTextWidth, segmentGraphemes } from '../../src/text/text-width.js';

beforeAll(() => loadTextWidth());

function press(editor: EditorState, key: Key, text?: string): EditorState {
  const next = editorKey(editor, { text, key });
  if (next === undefined) throw new Error(`${JSON.stringify(key)} is not an editing key`);
  return next;
}

function type(editor: EditorState, text: string): EditorState {
  let result = editor;
  for (const character of text) result = press(result, { name: character }, character);
  return result;
}

describe('editorKey', () => {
  it('inserts typed text at the cursor', () => {
    let editor = type(EMPTY_EDITOR, 'helo');
    editor = press(editor, { name: 'left' });
    editor = type(editor, 'l');
    expect(editor).toMatchObject({ text: 'hello', cursor: 4 });
  });

  it('moves by character, by word and to either end', () => {
    const editor = editorWith('one two three');
    expect(press(editor, { name: 'a', ctrl: true }).cursor).toBe(0);
    expect(press(press(editor, { name: 'home' }), { name: 'e', ctrl: true }).cursor).toBe(13);
    expect(press(editor, { name: 'b', ctrl: true }).cursor).toBe(12);
    expect(press(editor, { name: 'left', ctrl: true }).cursor).toBe(8);
    expect(press(editor, { name: 'b', meta: true }).cursor).toBe(8);
    const start = press(editor, { name: 'home' });
    expect(press(start, { name: 'right', ctrl: true }).cursor).toBe(3);
    expect(press(start, { name: 'f', meta: true }).cursor).toBe(3);
    expect(press(start, { name: 'f', ctrl: true }).cursor).toBe(1);
    expect(press(start, { name: 'end' }).cursor).toBe(13);
  });

  it('moves over a whole emoji, never into it', () => {
    const editor = editorWith('a👩‍💻');
    const left = press(editor, { name: 'left' });
    expect(left.cursor).toBe(1);
    expect(press(left, { name: 'right' }).cursor).toBe(editor.text.length);
    expect(press(editor, { name: 'backspace' }).text).toBe('a');
  });

  it('deletes left and right of the cursor', () => {
    const editor = press(editorWith('abc'), { name: 'left' });
    expect(press(editor, { name: 'backspace' })).toMatchObject({ text: 'ac', cursor: 1 });
    expect(press(editor, { name: 'delete' })).toMatchObject({ text: 'ab', cursor: 2 });
    expect(press(editor, { name: 'd', ctrl: true })).toMatchObject({ text: 'ab', cursor: 2 });
    expect(press(editor, { name: 'h', ctrl: true })).toMatchObject({ text: 'ac', cursor: 1 });
  });

  it('kills to either end or a word, and yanks the last kill back', () => {
    const middle = press(press(editorWith('one two three'), { name: 'left', ctrl: true }), {
      name: 'left',
    });
    const killedStart = press(middle, { name: 'u', ctrl: true });
    expect(killedStart).toMatchObject({ text: ' three', cursor: 0, killed: 'one two' });
    expect(press(killedStart, { name: 'y', ctrl: true })).toMatchObject({
      text: 'one two three',
      cursor: 7,
    });
    expect(press(middle, { name: 'k', ctrl: true })).toMatchObject({
      text: 'one two',
      killed: ' three',
    });
    expect(press(editorWith('one two'), { name: 'w', ctrl: true })).toMatchObject({ text: 'one ' });
    expect(press(editorWith('one two'), { name: 'backspace', meta: true }).text).toBe('one ');
    const start = press(editorWith('one two'), { name: 'home' });
    expect(press(start, { name: 'd', meta: true }).text).toBe(' two');
  });

  it('does nothing harmful at the edges', () => {
    expect(press(EMPTY_EDITOR, { name: 'backspace' })).toBe(EMPTY_EDITOR);
    expect(press(EMPTY_EDITOR, { name: 'delete' })).toBe(EMPTY_EDITOR);
    expect(press(EMPTY_EDITOR, { name: 'left' })).toBe(EMPTY_EDITOR);
  });

  it('leaves Enter, Esc, the vertical arrows and control characters to the menu', () => {
    for (const key of [{ name: 'return' }, { name: 'escape' }, { name: 'up' }, { name: 'down' }]) {
      expect(editorKey(EMPTY_EDITOR, { text: undefined, key })).toBeUndefined();
    }
    expect(editorKey(EMPTY_EDITOR, { text: '\u0007', key: { name: undefined } })).toBeUndefined();
  });

  it('moves, deletes and draws in a long draft reading only around the cursor', () => {
    // Emoji among the CJK text: every grapheme goes through the segmenter.
    const draft = editorWith('日本語の文章を貼り付けます。👩‍💻'.repeat(1_100));
    expect(draft.text.length).toBeGreaterThan(16_000);
    const style = terminalStyle({ env: {}, stream: {}, interactive: true });
    const segment = Intl.Segmenter.prototype.segment;
    let read = 0;
    Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
      read += input.length;
      return segment.call(this, input);
    };
    let editor = draft;
    try {
      for (let round = 0; round < 10; round++) {
        for (const name of ['left', 'left', 'backspace', 'right', 'delete']) {
          editor = press(editor, { name });
          editorView(editor, 78, style);
        }
      }
    } finally {
      Intl.Segmenter.prototype.segment = segment;
    }
    // Fifty keys: a window around the cursor each, never the 16,000 characters.
    expect(read).toBeLessThan(50 * 1_000);
    // Each round erased two whole graphemes, never half of one.
    const count = (text: string) => Array.from(segmentGraphemes(text)).length;
    expect(count(editor.text)).toBe(count(draft.text) - 20);
    expect(editor.text).not.toMatch(/\p{Cs}/u);
  });
});
