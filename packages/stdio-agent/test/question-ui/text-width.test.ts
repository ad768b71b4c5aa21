import fc from 'fast-check';
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ellipsize,
  isNarrowText,
  loadTextWidth,
  segmentGraphemes,
  standsAlone,
  textWidth,
  textWidthBound,
  textWidthUpTo,
  truncateText,
  wrapText,
} from '../../src/text/text-width.js';

beforeAll(() => loadTextWidth());

describe('textWidth', () => {
  it('counts the columns a terminal gives each character', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('数据库')).toBe(6);
    expect(textWidth('👩‍💻')).toBe(2);
    expect(textWidth('e\u0301')).toBe(1);
  });
});

describe('the fast path for narrow text', () => {
  it('measures exactly what string-width measures', () => {
    const narrow: string[] = [];
    for (let codePoint = 0; codePoint < 0x2800; codePoint++) {
      const character = String.fromCodePoint(codePoint);
      if (isNarrowText(character)) narrow.push(character);
    }
    expect(narrow.length).toBeGreaterThan(1000);
    for (const character of narrow) expect(stringWidth(character)).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...narrow), { maxLength: 40 }), (characters) => {
        const text = characters.join('');
        expect(textWidth(text)).toBe(stringWidth(text));
      }),
    );
  });
});

describe('the fast path for text whose characters stand alone', () => {
  it('measures and segments CJK, kana and Hangul exactly as string-width and the segmenter do', () => {
    const alone: string[] = [];
    for (let codePoint = 0x2e80; codePoint < 0x10000; codePoint++) {
      const character = String.fromCodePoint(codePoint);
      if (standsAlone(character)) alone.push(character);
    }
    expect(alone.length).toBeGreaterThan(30_000);
    for (const character of alone) expect(stringWidth(character)).toBe(2);
    const segmenter = new Intl.Segmenter();
    // Next to narrow text, next to marks that could join them, cut anywhere.
    const pieces = [...alone.filter((_, index) => index % 97 === 0), 'a', ' ', 'é', '.'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (characters) => {
        const text = characters.join('');
        expect(standsAlone(text)).toBe(true);
        expect(textWidth(text)).toBe(stringWidth(text));
        expect(Array.from(segmenter.segment(text), ({ segment }) => segment)).toEqual(characters);
      }),
    );
    expect(standsAlone('が\u3099')).toBe(false);
    expect(standsAlone('〰')).toBe(false);
  });
});

describe('long text', () => {
  it('is segmented and measured in time that grows with its length, not its square', () => {
    const text = '日本語の文章を貼り付けます。👩‍💻'.repeat(1_000);
    const segment = Intl.Segmenter.prototype.segment;
    let longest = 0;
    Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
      longest = Math.max(longest, input.length);
      return segment.call(this, input);
    };
    try {
      const pieces = Array.from(segmentGraphemes(text), ({ segment }) => segment);
      expect(pieces.join('')).toBe(text);
      expect(pieces).toHaveLength(15 * 1_000);
      expect(pieces[14]).toBe('👩‍💻');
      expect(textWidth(text)).toBe(30 * 1_000);
      expect(textWidthUpTo(text, 81)).toBe(81);
      expect(truncateText(text, 5)).toBe('日本…');
    } finally {
      Intl.Segmenter.prototype.segment = segment;
    }
    // The engine's segmenter spends time in proportion to its whole input on every grapheme.
    expect(longest).toBeLessThan(1_000);
  });
});

describe('truncateText and ellipsize', () => {
  it('leaves text that fits alone', () => {
    expect(truncateText('Postgres', 8)).toBe('Postgres');
  });

  it('cuts text that does not fit and says so with …', () => {
    expect(truncateText('Postgres', 5)).toBe('Post…');
    expect(truncateText('数据库数据库', 5)).toBe('数据…');
    expect(truncateText('anything', 0)).toBe('');
  });

  it('never splits a character made of several code points', () => {
    expect(truncateText('ab👩‍💻cd', 4)).toBe('ab…');
    expect(truncateText('ab👩‍💻cd', 5)).toBe('ab👩‍💻…');
  });

  it('always ends with … even when the text would fit exactly', () => {
    expect(ellipsize('abc', 3)).toBe('ab…');
    expect(ellipsize('abc', 10)).toBe('abc…');
  });
});

describe('wrapText', () => {
  it('wraps at spaces', () => {
    expect(wrapText('Which database should we use?', 15)).toEqual([
      'Which database',
      'should we use?',
    ]);
  });

  it('keeps line breaks and blank lines', () => {
    expect(wrapText('First line.\n\nSecond line.', 40)).toEqual([
      'First line.',
      '',
      'Second line.',
    ]);
  });

  it('breaks a word only when it is wider than a line', () => {
    expect(wrapText('see /a/very/long/path/name here', 10)).toEqual([
      'see',
      '/a/very/lo',
      'ng/path/na',
      'me here',
    ]);
  });

  it('keeps the indentation of a paragraph', () => {
    expect(wrapText('  - one two three', 10)).toEqual(['  - one', 'two three']);
  });

  it('counts wide characters as two columns', () => {
    expect(wrapText('数据库 数据库', 7)).toEqual(['数据库', '数据库']);
  });

  it('never makes a line wider than asked, and never loses a word', () => {
    const word = fc.stringMatching(/^[a-z数据😀]{1,12}$/u);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 2, max: 50 }),
        (words, width) => {
          const lines = wrapText(words.join(' '), width);
          for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(width);
          expect(lines.join('').replaceAll(' ', '')).toBe(words.join(''));
        },
      ),
    );
  });
});

describe('textWidthBound', () => {
  it('is never below the exact width, for emoji sequences, marks and every script', () => {
    const piece = fc.constantFrom(
      'a',
      'é',
      'e\u0301',
      '中',
      'ｱ',
      '가',
      '\u1100\u1161',
      '👨\u200d👩\u200d👧',
      '🏳️\u200d🌈',
      '©\ufe0f',
      '#\ufe0f\u20e3',
      '👩🏽\u200d💻',
      'ש',
      '\u05b8',
      'م',
      '\u064e',
      '\u0e01\u0e33',
      '🇫🇷',
      '\u200b',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        expect(textWidthBound(text)).toBeGreaterThanOrEqual(stringWidth(text));
      }),
    );
  });

  it('measures Hebrew and Arabic letters on the fast path, one column each, as string-width does', () => {
    const text = 'שלום עולם مرحبا بالعالم 123';
    expect(isNarrowText(text)).toBe(true);
    expect(textWidth(text)).toBe(stringWidth(text));
    // Their points and marks are not on it: those are measured exactly.
    expect(isNarrowText('שָׁלוֹם')).toBe(false);
    expect(textWidth('שָׁלוֹם')).toBe(stringWidth('שָׁלוֹם'));
  });
});
