import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchKey, searchMatches } from '../../src/text/search-key.js';

/** The parts of `text` that `typed` matches. */
function found(text: string, typed: string): string[] {
  return searchMatches(text, searchKey(typed)).map(({ start, end }) => text.slice(start, end));
}

describe('searchKey', () => {
  it('folds a text as its code points one by one, whatever the script (runs are copied whole)', () => {
    const piece = fc.constantFrom(
      'a',
      'Z',
      ' ',
      '\t',
      'é',
      'e\u0301',
      'ß',
      'Σ',
      'ς',
      'ﬁ',
      'Ａ',
      'ש',
      'ל',
      'م',
      'ر',
      '\u05b8',
      '\u064e',
      '👨\u200d👩\u200d👧',
      '🏳️\u200d🌈',
      '\u200f',
      '\ud800',
      '\udc00',
      '1',
      'İ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const one = [...text].map((character) => searchKey(character)).join('');
        expect(searchKey(text)).toBe(one);
      }),
    );
    expect(searchKey('שלום עולם')).toBe('שלום עולם');
    expect(searchKey('👨\u200d👩\u200d👧 Family')).toBe('👨👩👧 family');
  });

  it('ignores case and accents, composed or not', () => {
    expect(searchKey('Café')).toBe('cafe');
    expect(searchKey('Cafe\u0301')).toBe('cafe');
    expect(searchKey('CAFÉ')).toBe(searchKey('café'));
    expect(searchKey('Ångström')).toBe('angstrom');
  });

  it('folds what a person types with plain letters: ß, full-width letters, ligatures, dotted I', () => {
    expect(searchKey('Straße')).toBe('strasse');
    expect(searchKey('STRAẞE')).toBe('strasse');
    expect(searchKey('ＣＡＦＥ')).toBe('cafe');
    expect(searchKey('ﬁle')).toBe('file');
    expect(searchKey('İstanbul')).toBe('istanbul');
    expect(searchKey('Łódź')).toBe('lodz');
    expect(searchKey('Ærø')).toBe('aero');
  });

  it('folds one character at a time: a final sigma is a sigma', () => {
    expect(searchKey('ΟΔΟΣ')).toBe(searchKey('οδος'));
    expect(searchKey('οδος')).toBe(searchKey('οδοσ'));
  });

  it('drops invisible characters and keeps every white space as one space', () => {
    expect(searchKey('a\u200bb')).toBe('ab');
    expect(searchKey('New\u00a0York')).toBe('new york');
    expect(searchKey('tab\there')).toBe('tab here');
  });
});

describe('searchMatches', () => {
  it('finds every occurrence, as the text shows it', () => {
    expect(found('Café au lait, café noir', 'CAFE')).toEqual(['Café', 'café']);
    expect(found('Cafe\u0301 crème', 'cafe')).toEqual(['Cafe\u0301']);
    expect(found('ＣＡＦＥ', 'cafe')).toEqual(['ＣＡＦＥ']);
  });

  it('maps a letter folded to two back to the one it came from', () => {
    expect(found('Straße', 'ss')).toEqual(['ß']);
    expect(found('Straße', 'strasse')).toEqual(['Straße']);
    expect(found('ßß', 'ss')).toEqual(['ß', 'ß']);
  });

  it('finds nothing for an empty query or text that is not there', () => {
    expect(found('Postgres', '')).toEqual([]);
    expect(found('Postgres', 'sql')).toEqual([]);
  });
});
