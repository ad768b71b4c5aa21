import { REQUEST_LIMITS } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { editorWith } from '../../src/question-ui/editor/editor-state.js';
import { initialMenuState, menuKeys, withWindow } from '../../src/question-ui/menu/menu-state.js';
import { key, runMenu as run, typed } from '../support/key-presses.js';

function menu(optionCount: number, options: { allowCustom?: boolean; recommended?: number } = {}) {
  return initialMenuState({
    optionCount,
    allowCustom: options.allowCustom ?? false,
    recommended: options.recommended ?? -1,
  });
}

describe('menu state', () => {
  it('starts on the recommended option, else on the first', () => {
    expect(menu(3, { recommended: 2 }).focus).toBe(2);
    expect(menu(3).focus).toBe(0);
    expect(menu(0).mode).toBe('editor');
    expect(menu(3).mode).toBe('menu');
  });

  it('moves with the arrows, Ctrl+N/P and Tab, wrapping at both ends', () => {
    const start = menu(3);
    expect(run(start, key('up')).state.focus).toBe(2);
    expect(run(start, key('down'), key('down'), key('down')).state.focus).toBe(0);
    expect(run(start, key('n', { ctrl: true })).state.focus).toBe(1);
    expect(run(start, key('p', { ctrl: true })).state.focus).toBe(2);
    expect(run(start, key('tab')).state.focus).toBe(1);
    expect(run(start, key('tab', { shift: true })).state.focus).toBe(2);
  });

  it('jumps with Home and End, and by a window with PageUp and PageDown', () => {
    const start = withWindow(menu(50), 0, 10);
    expect(run(start, key('end')).state.focus).toBe(49);
    expect(run(start, key('end'), key('home')).state.focus).toBe(0);
    expect(run(start, key('pagedown')).state.focus).toBe(10);
    expect(run(start, key('pagedown'), key('pagedown'), key('pageup')).state.focus).toBe(10);
    expect(run(start, key('pageup')).state.focus).toBe(0);
    expect(run(start, key('end'), key('pagedown')).state.focus).toBe(49);
  });

  it('counts the custom row as the last row', () => {
    const start = menu(2, { allowCustom: true });
    expect(run(start, key('up')).state.focus).toBe(2);
    expect(run(start, key('end')).state.focus).toBe(2);
  });

  it('chooses with Enter', () => {
    expect(run(menu(3), key('down'), key('return')).outcome).toEqual({ kind: 'option', index: 1 });
    expect(run(menu(3), key('enter')).outcome).toEqual({ kind: 'option', index: 0 });
  });

  it('chooses with one digit at once when there are nine options or fewer', () => {
    expect(run(menu(9), typed('9')).outcome).toEqual({ kind: 'option', index: 8 });
    expect(run(menu(3, { allowCustom: true }), typed('2')).outcome).toEqual({
      kind: 'option',
      index: 1,
    });
  });

  it('refuses a digit that names no option, without choosing anything', () => {
    for (const digit of ['0', '4']) {
      const step = run(menu(3), typed(digit));
      expect(step.outcome).toBeUndefined();
      expect(step.state.notice).toEqual({ kind: 'no-option', number: digit });
    }
  });

  it('builds a number from digits when there are more than nine options', () => {
    const twelve = run(menu(30), typed('1'), typed('2'));
    expect(twelve.outcome).toBeUndefined();
    expect(twelve.state).toMatchObject({ digits: '12', focus: 11 });
    expect(run(twelve.state, key('return')).outcome).toEqual({ kind: 'option', index: 11 });
  });

  it('refuses a digit that would make a number past the list, keeping the number so far', () => {
    const step = run(menu(30), typed('3'), typed('5'));
    expect(step.state).toMatchObject({ digits: '3', notice: { kind: 'no-option', number: '35' } });
    expect(run(menu(30), typed('0')).state.notice).toEqual({ kind: 'no-option', number: '0' });
  });

  it('erases digits with Backspace and clears them with Esc before Esc declines', () => {
    const twelve = run(menu(30), typed('1'), typed('2')).state;
    expect(run(twelve, key('backspace')).state).toMatchObject({ digits: '1', focus: 0 });
    const cleared = run(twelve, key('escape'));
    expect(cleared.outcome).toBeUndefined();
    expect(cleared.state.digits).toBe('');
    expect(run(cleared.state, key('escape')).outcome).toEqual({ kind: 'decline' });
  });

  it('forgets typed digits when the focus moves', () => {
    expect(run(menu(30), typed('1'), key('down')).state).toMatchObject({ digits: '', focus: 1 });
  });

  it('declines with Esc and cancels with Ctrl+C, in the menu and in the editor', () => {
    expect(run(menu(3), key('escape')).outcome).toEqual({ kind: 'decline' });
    expect(run(menu(3), key('c', { ctrl: true })).outcome).toEqual({ kind: 'cancel' });
    expect(run(menu(0), key('escape')).outcome).toEqual({ kind: 'decline' });
    expect(run(menu(0), typed('x'), key('c', { ctrl: true })).outcome).toEqual({ kind: 'cancel' });
  });

  it('opens the editor from the custom row with Enter', () => {
    const step = run(menu(2, { allowCustom: true }), key('end'), key('return'));
    expect(step.outcome).toBeUndefined();
    expect(step.state).toMatchObject({ mode: 'editor', focus: 2 });
  });

  it('jumps to the editor with the letters typed in the menu, when custom answers are allowed', () => {
    const step = run(menu(2, { allowCustom: true }), typed('h'), typed('i'));
    expect(step.state).toMatchObject({ mode: 'editor', focus: 2, editor: { text: 'hi' } });
    expect(run(step.state, key('return')).outcome).toEqual({ kind: 'text', text: 'hi' });
  });

  it('says so when letters are typed and only the options can be chosen', () => {
    const step = run(menu(2), typed('h'));
    expect(step.state).toMatchObject({ mode: 'menu', notice: { kind: 'options-only' } });
    expect(run(step.state, key('down')).state.notice).toBeUndefined();
  });

  it('goes back to the menu with Esc from the editor, keeping the draft', () => {
    const editing = run(menu(2, { allowCustom: true }), typed('d'), typed('b')).state;
    const back = run(editing, key('escape'));
    expect(back.outcome).toBeUndefined();
    expect(back.state).toMatchObject({ mode: 'menu', focus: 2, editor: { text: 'db' } });
    const again = run(back.state, key('return'), typed('2'));
    expect(again.state).toMatchObject({ mode: 'editor', editor: { text: 'db2' } });
  });

  it('leaves the editor with the vertical arrows', () => {
    const editing = run(menu(2, { allowCustom: true }), typed('x')).state;
    expect(run(editing, key('up')).state).toMatchObject({ mode: 'menu', focus: 1 });
    expect(run(editing, key('down')).state).toMatchObject({ mode: 'menu', focus: 0 });
  });

  it('does not submit a blank answer, and trims a typed one', () => {
    const blank = run(menu(0), typed(' '), key('return'));
    expect(blank.outcome).toBeUndefined();
    expect(blank.state.notice).toEqual({ kind: 'blank' });
    expect(run(menu(0), typed(' '), typed('a'), typed(' '), key('return')).outcome).toEqual({
      kind: 'text',
      text: 'a',
    });
  });

  it('takes a pasted line break as a space, not as Enter', () => {
    const step = run(
      menu(0),
      key('paste-start'),
      typed('a'),
      key('return'),
      typed('b'),
      key('paste-end'),
    );
    expect(step.outcome).toBeUndefined();
    expect(step.state.editor.text).toBe('a b');
    expect(run(step.state, key('return')).outcome).toEqual({ kind: 'text', text: 'a b' });
  });

  it('opens the editor with pasted text in the menu, or refuses it without custom answers', () => {
    const custom = run(menu(2, { allowCustom: true }), key('paste-start'), typed('x'));
    expect(custom.state).toMatchObject({ mode: 'editor', editor: { text: 'x' } });
    const closed = run(menu(2), key('paste-start'), typed('x'), key('return'));
    expect(closed.outcome).toBeUndefined();
    expect(closed.state.notice).toEqual({ kind: 'options-only' });
  });

  it('takes every key of a paste as the text it was sent as, Esc and arrows included', () => {
    const esc = { text: undefined, key: { name: 'escape', sequence: '\u001b' } };
    const up = { text: undefined, key: { name: 'up', sequence: '\u001b[A' } };
    const red = { text: undefined, key: { name: undefined, sequence: '\u001b[31m' } };
    const step = run(menu(0), key('paste-start'), esc, typed('a'), up, red, key('paste-end'));
    expect(step.outcome).toBeUndefined();
    expect(step.state.editor.text).toBe('\u001ba\u001b[A\u001b[31m');
    // Ctrl+C still cancels in the middle of a paste.
    expect(run(menu(0), key('paste-start'), typed('a'), key('c', { ctrl: true })).outcome).toEqual({
      kind: 'cancel',
    });
  });

  it('applies the keys of a chunk in order, the keys of a paste joined into one insertion', () => {
    const cr = { text: '\r', key: { name: 'return', sequence: '\r' } };
    const lf = { text: '\n', key: { name: 'enter', sequence: '\n' } };
    const keys = [typed('a'), key('paste-start'), typed('b'), cr, lf, typed('c'), key('paste-end')];
    const batch = menuKeys(menu(0), keys);
    // A CR LF inside one chunk is one line break, so one space.
    expect(batch.state.editor).toMatchObject({ text: 'ab c', cursor: 4 });
    expect(batch.state.pasting).toBe(false);
    const ended = menuKeys(menu(0), [typed('x'), key('return'), typed('y')]);
    expect(ended.outcome).toEqual({ kind: 'text', text: 'x' });
  });

  it('keeps the draft within the longest answer, and says so', () => {
    const limit = REQUEST_LIMITS.answerLength;
    const nearly = { ...menu(0), editor: editorWith('x'.repeat(limit - 2)) };
    const pasted = run(nearly, key('paste-start'), typed('a'), typed('b'), typed('c'));
    expect(pasted.state.editor.text).toHaveLength(limit);
    expect(pasted.state.notice).toEqual({ kind: 'answer-limit', pasted: true });
    expect(run(pasted.state, key('paste-end')).state.notice).toEqual(pasted.state.notice);
    const full = { ...menu(0), editor: editorWith('x'.repeat(limit)) };
    const typedMore = run(full, typed('d'));
    expect(typedMore.state.editor.text).toHaveLength(limit);
    expect(typedMore.state.notice).toEqual({ kind: 'answer-limit', pasted: false });
    const yanked = run(
      { ...full, editor: { ...full.editor, killed: 'more' } },
      key('y', { ctrl: true }),
    );
    expect(yanked.state.editor.text).toHaveLength(limit);
    // A draft that is somehow longer is not submitted.
    const over = { ...menu(0), editor: editorWith('x'.repeat(limit + 1)) };
    const submitted = run(over, key('return'));
    expect(submitted.outcome).toBeUndefined();
    expect(submitted.state.notice).toEqual({ kind: 'answer-too-long', length: limit + 1 });
  });
});
