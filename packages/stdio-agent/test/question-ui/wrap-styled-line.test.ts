import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTextWidth, textWidth } from '../../src/text/text-width.js';
import { type StyledRun, wrapStyledLine } from '../../src/text/wrap-styled-line.js';

beforeAll(() => loadTextWidth());

/** Styles that show where they start and end: `<` and `>`, `{` and `}`. */
const angle = (text: string): string => `<${text}>`;
const brace = (text: string): string => `{${text}}`;
const unstyled = (row: string): string => row.replace(/[<>{}]/g, '');

describe('wrapStyledLine', () => {
  it('wraps at spaces, indents the rows after the first, and styles each row it reaches', () => {
    const runs: StyledRun[] = [
      { text: '✖', style: angle },
      { text: ' ' },
      { text: 'Error', style: brace },
      { text: ': the server at http://localhost:8080/v1 failed. (CODE)' },
    ];
    expect(wrapStyledLine(runs, 26, '  ')).toEqual([
      '<✖> {Error}: the server at',
      '  http://localhost:8080/v1',
      '  failed. (CODE)',
    ]);
    expect(
      wrapStyledLine([{ text: '  Check the key, then start again.', style: angle }], 20, '  '),
    ).toEqual(['<  Check the key,>', '  <then start again.>']);
  });

  it('breaks a word wider than a row, by columns, wide characters whole', () => {
    expect(wrapStyledLine([{ text: 'ab 数据库数据库' }], 5, ' ')).toEqual([
      'ab',
      ' 数据',
      ' 库数',
      ' 据库',
    ]);
    expect(wrapStyledLine([{ text: 'abcdefgh' }], 3)).toEqual(['abc', 'def', 'gh']);
  });

  it('gives one row for text that fits, an empty row for none, and keeps it whole without a width', () => {
    expect(wrapStyledLine([{ text: 'short' }], 40, '  ')).toEqual(['short']);
    expect(wrapStyledLine([], 40)).toEqual(['']);
    const long = 'word '.repeat(100).trim();
    expect(wrapStyledLine([{ text: long }], Number.POSITIVE_INFINITY)).toEqual([long]);
  });

  it('never makes a row wider than asked, loses or splits no word that fits, and keeps styles in their rows', () => {
    const word = fc
      .array(fc.constantFrom('a', 'b', 'é', '中', '.', '/'), { minLength: 1, maxLength: 6 })
      .map((characters) => characters.join(''));
    const run = fc.record({
      words: fc.array(word, { minLength: 1, maxLength: 6 }),
      styled: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(run, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 14, max: 40 }),
        (parts, width) => {
          const runs: StyledRun[] = parts.flatMap((part, index) => [
            ...(index > 0 ? [{ text: ' ' }] : []),
            { text: part.words.join(' '), ...(part.styled && { style: angle }) },
          ]);
          const rows = wrapStyledLine(runs, width, '  ');
          for (const [index, row] of rows.entries()) {
            expect(textWidth(unstyled(row))).toBeLessThanOrEqual(width);
            if (index > 0) expect(row.startsWith('  ')).toBe(true);
            // Every style that opens on a row closes on it.
            expect(row.split('<').length).toBe(row.split('>').length);
          }
          const words = parts.flatMap((part) => part.words);
          const shown = rows.flatMap((row) => unstyled(row).trim().split(/ +/));
          expect(shown).toEqual(words);
        },
      ),
      { numRuns: 300 },
    );
  });
});
