import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  graphemeCut,
  graphemesAfter,
  graphemesBefore,
  nextGraphemeEnd,
  previousGraphemeStart,
} from '../../src/question-ui/editor/grapheme-window.js';
import { loadTextWidth } from '../../src/text/text-width.js';

beforeAll(() => loadTextWidth());

// Pieces that exercise every rule of grapheme segmentation that looks further than one code
// point: combining marks, ZWJ emoji sequences, flag pairs, skin tones, Indic conjuncts,
// Hangul jamo, prepended marks, CR LF; next to plain, wide and narrow text.
const PIECES = [
  'a',
  ' ',
  'é',
  'e\u0301',
  '\u0301',
  '数',
  '👩',
  '\u200d',
  '💻',
  '👩‍💻',
  '🇫',
  '🇷',
  '🏽',
  'क',
  '\u094d',
  'ष',
  '\u1100',
  '\u1161',
  '\u11a8',
  '\u0600',
  '\r',
  '\n',
  '\u001b',
  '©',
  '\ufe0f',
];

const segmenter = new Intl.Segmenter();

/** Every grapheme boundary of the whole text, as the reference. */
function boundaries(text: string): number[] {
  const result = [0];
  for (const { index, segment } of segmenter.segment(text)) result.push(index + segment.length);
  return result;
}

const texts = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 120 })
  .map((pieces) => pieces.join(''));

describe('graphemes read through a window', () => {
  it('find the same boundaries as segmenting the whole text, wherever the cursor is', () => {
    fc.assert(
      fc.property(texts, fc.nat(), (text, seed) => {
        const all = boundaries(text);
        const at = all[seed % all.length] as number;
        const position = all.indexOf(at);
        expect(previousGraphemeStart(text, at)).toBe(all[Math.max(0, position - 1)]);
        expect(nextGraphemeEnd(text, at)).toBe(all[Math.min(all.length - 1, position + 1)]);
      }),
      { numRuns: 400 },
    );
  });

  it('list the graphemes on each side of a boundary as the whole text has them', () => {
    fc.assert(
      fc.property(texts, fc.nat(), fc.integer({ min: 0, max: 30 }), (text, seed, columns) => {
        const all = boundaries(text);
        const position = seed % all.length;
        const at = all[position] as number;
        const graphemes = all.slice(1).map((end, index) => text.slice(all[index], end));
        const after = graphemesAfter(text, at, columns, () => 1);
        const before = graphemesBefore(text, at, columns, () => 1);
        const expectedAfter = graphemes.slice(position, position + columns + 1);
        const expectedBefore = graphemes
          .slice(Math.max(0, position - columns - 1), position)
          .reverse();
        expect(after.graphemes.map((grapheme) => grapheme.text)).toEqual(expectedAfter);
        expect(after.more).toBe(position + expectedAfter.length < graphemes.length);
        expect(before.graphemes.map((grapheme) => grapheme.text)).toEqual(expectedBefore);
        expect(before.more).toBe(position - expectedBefore.length > 0);
      }),
      { numRuns: 400 },
    );
  });

  it('cut a text only between graphemes', () => {
    fc.assert(
      fc.property(texts, fc.nat(), (text, seed) => {
        const index = seed % (text.length + 1);
        const cut = graphemeCut(text, index);
        const all = boundaries(text);
        expect(cut).toBe(Math.max(...all.filter((boundary) => boundary <= index)));
      }),
      { numRuns: 400 },
    );
  });

  it('read a window, not the whole text, for a cursor in the middle of a long one', () => {
    const text = '数据库'.repeat(20_000);
    const middle = 30_000;
    const segment = Intl.Segmenter.prototype.segment;
    let read = 0;
    Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
      read += input.length;
      return segment.call(this, input);
    };
    try {
      expect(graphemesBefore(text, middle, 80, () => 2).graphemes).toHaveLength(41);
      expect(graphemesAfter(text, middle, 80, () => 2).graphemes).toHaveLength(41);
      expect(previousGraphemeStart(text, middle)).toBe(middle - 1);
      expect(nextGraphemeEnd(text, middle)).toBe(middle + 1);
    } finally {
      Intl.Segmenter.prototype.segment = segment;
    }
    expect(read).toBeLessThan(2_000);
  });
});
