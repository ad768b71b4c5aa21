import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hintLines } from '../../src/question-ui/menu/menu-hints.js';
import { menuKey } from '../../src/question-ui/menu/menu-state.js';
import { questionView } from '../../src/question-ui/question-view.js';
import { options, stateFor, style } from '../support/menu-frames.js';

describe('hintLines', () => {
  const view = questionView({ question: 'Pick', options: options(4), allowCustom: true });
  const plain = (lines: string[]) => lines.map((line) => stripVTControlCharacters(line));

  it('wraps every hint when the lines are not limited', () => {
    expect(plain(hintLines(view, stateFor(view), 40, style))).toEqual([
      '↑↓ move · Enter select · 1-4 choose',
      'or type an answer · Esc decline',
      'Ctrl+C cancel',
    ]);
  });

  it('leaves out the least needed hints to fit one line, and takes back those that still fit', () => {
    expect(plain(hintLines(view, stateFor(view), 40, style, 1))).toEqual([
      '↑↓ move · Enter select · Esc decline',
    ]);
    expect(plain(hintLines(view, stateFor(view), 50, style, 1))).toEqual([
      '↑↓ move · Enter select · 1-4 choose · Esc decline',
    ]);
    expect(plain(hintLines(view, stateFor(view), 40, style, 2))).toEqual([
      '↑↓ move · Enter select · 1-4 choose',
      'Esc decline · Ctrl+C cancel',
    ]);
    expect(plain(hintLines(view, stateFor(view), 12, style, 1))).toEqual(['Enter select']);
    expect(hintLines(view, stateFor(view), 40, style, 0)).toEqual([]);
  });

  it('always keeps the number being typed', () => {
    const long = questionView({ question: 'Pick', options: options(40) });
    const state = menuKey(stateFor(long), { text: '3', key: { name: '3' } }).state;
    expect(plain(hintLines(long, state, 30, style, 1))).toEqual(['Option 3 · Enter choose']);
  });
});
