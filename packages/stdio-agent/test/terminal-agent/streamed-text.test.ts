import { describe, expect, it } from 'vitest';
import { StreamedText } from '../../src/terminal-agent/streamed-text.js';
import { fitStyledLine } from '../../src/text/fit-styled-line.js';

function streamAll(text: StreamedText, deltas: string[]): string {
  return deltas.map((delta) => text.push(delta)).join('');
}

describe('StreamedText', () => {
  it('keeps a \\r\\n split between two deltas one line break, and a lone \\r one too', () => {
    const text = new StreamedText();
    expect(text.push('one\r')).toBe('one');
    expect(text.atLineStart).toBe(false);
    expect(text.push('\ntwo\r')).toBe('\ntwo');
    expect(text.push('three')).toBe('\nthree');
    expect(text.endLine()).toBe('\n');
    expect(text.endLine()).toBe('');
    expect(text.atLineStart).toBe(true);
  });

  it('lines tabs up across deltas', () => {
    const text = new StreamedText();
    expect(streamAll(text, ['ab', '\tc', '\n\td'])).toBe('ab  c\n    d');
  });

  it('makes control characters inert', () => {
    const text = new StreamedText();
    expect(text.push('\u001b[31mred\u0007\u202e')).toBe('^[[31mred^G<U+202E>');
  });

  it('writes a pipe as it comes, unwrapped', () => {
    const text = new StreamedText(() => undefined);
    expect(text.push('a long line that no terminal would keep on one row')).toBe(
      'a long line that no terminal would keep on one row',
    );
  });

  it('wraps at spaces within the width, ending a full row without a leading blank', () => {
    const text = new StreamedText(() => 10);
    expect(streamAll(text, ['alpha beta gamma'])).toBe('alpha beta\ngamma');
    const exact = new StreamedText(() => 5);
    // "abcde" fills the row: the space after it becomes the break.
    expect(streamAll(exact, ['abcde fgh'])).toBe('abcde\nfgh');
  });

  it('moves a word that grows past the edge in a later delta down to the next row', () => {
    const text = new StreamedText(() => 10);
    expect(text.push('alpha be')).toBe('alpha be');
    // Erase "be" (from column 6), then write it again on the next row.
    expect(text.push('tamax')).toBe('ta\r\u001b[6C\u001b[K\nbetamax');
  });

  it('breaks a word wider than a row', () => {
    const text = new StreamedText(() => 4);
    expect(text.push('abcdefghij')).toBe('abcd\nefgh\nij');
  });

  it('starts counting again after a line written by someone else', () => {
    const text = new StreamedText(() => 10);
    text.push('123456789');
    text.lineEnded();
    expect(text.atLineStart).toBe(true);
    expect(text.push('abcdefghij')).toBe('abcdefghij');
  });
});

describe('StreamedText in hold mode (plain: no escape sequence)', () => {
  const hold = (width: number | undefined) => new StreamedText(() => width, 'hold');

  it('holds a word back until it ends, then breaks the line before it if it does not fit', () => {
    const text = hold(10);
    expect(text.push('alpha be')).toBe('alpha ');
    // "betamax" ends at the space: it would pass the edge, so the line breaks before it.
    expect(text.push('tamax is')).toBe('\nbetamax ');
    // "is" fills the row: the space after it becomes the break.
    expect(text.push(' long\nand')).toBe('is\nlong\n');
    // The end of the turn ends the last word.
    expect(text.endLine()).toBe('and\n');
    expect(text.atLineStart).toBe(true);
  });

  it('writes the text of a wrapped turn the same, whatever the deltas, with no escape byte', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog and runs far away.';
    const whole = hold(12);
    const expected = whole.push(sentence) + whole.endLine();
    // A space at the end of a row is written as it comes: it shows as nothing.
    expect(expected).toBe(
      'The quick \nbrown fox \njumps over \nthe lazy dog\nand runs far\naway.\n',
    );
    const split = hold(12);
    const shown = streamAll(split, Array.from(sentence)) + split.endLine();
    expect(shown).toBe(expected);
    expect(shown).not.toContain('\u001b');
  });

  it('cuts a word longer than the line at the width, on rows of its own', () => {
    const text = hold(4);
    expect(streamAll(text, ['ab ', 'cdefghij', 'k l'])).toBe('ab \ncdef\nghij\nk ');
    expect(text.endLine()).toBe('l\n');
  });

  it('lines a tab up after the held word, and counts wide characters by their width', () => {
    const text = hold(10);
    expect(streamAll(text, ['ab', '\tc'])).toBe('ab  ');
    expect(text.flush()).toBe('c');
    // Two columns each: "日本語" fits in 6 of the 10, "日本" no longer does after it.
    const wide = hold(10);
    expect(wide.push('日本語 日本 ')).toBe('日本語 \n日本 ');
  });

  it('writes a pipe as it comes: nothing held back', () => {
    const text = hold(undefined);
    expect(text.push('a long line that no terminal would keep on one row')).toBe(
      'a long line that no terminal would keep on one row',
    );
  });
});

describe('fitStyledLine', () => {
  it('leaves a line that fits alone', () => {
    expect(fitStyledLine('\u001b[1mshort\u001b[22m', 10)).toBe('\u001b[1mshort\u001b[22m');
  });

  it('cuts plain text with an ellipsis', () => {
    expect(fitStyledLine('abcdefghij', 5)).toBe('abcd…');
  });

  it('cuts styled text by what is visible, keeps the styles before the cut, and resets them', () => {
    const line = '\u001b[33m✖\u001b[39m \u001b[1mtool\u001b[22m failed badly';
    expect(fitStyledLine(line, 8)).toBe('\u001b[33m✖\u001b[39m \u001b[1mtool\u001b[22m …\u001b[0m');
  });
});
