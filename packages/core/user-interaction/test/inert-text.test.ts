import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InertTextLevel, inertText, isBlankText, timeLimitSentence } from '../src/index.js';

const LEVELS: readonly InertTextLevel[] = [
  'file-excerpt',
  'log-line',
  'terminal-line',
  'terminal-paragraphs',
];

/** What must never come out at any level: controls (but `\n`), separators, bidi and zero-width marks. */
const ACTIVE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\ufeff\u3164\u2800]/u;

describe('inertText', () => {
  it('escapes every hidden character and the backslash in a file excerpt (the default) and a log line', () => {
    const hostile = 'a\u001b[2J\n\u202e\u200b\u3164\u2800\u034f\ufe0f\u{e0041}\ud800\\b';
    const escaped =
      'a\\u001b[2J\\n\\u202e\\u200b\\u3164\\u2800\\u034f\\ufe0f\\u{e0041}\\ud800\\\\b';
    expect(inertText(hostile)).toBe(escaped);
    expect(inertText(hostile, 'log-line')).toBe(escaped);
  });

  it('cuts a log line after 200 characters by default, any level after `longest`', () => {
    expect(inertText('x'.repeat(201), 'log-line')).toBe(`${'x'.repeat(200)}… (201 characters)`);
    expect(inertText('x'.repeat(200), 'log-line')).toBe('x'.repeat(200));
    expect(inertText('x'.repeat(201))).toBe('x'.repeat(201));
    expect(inertText('\u001bxyz', 'terminal-line', { longest: 2 })).toBe('^[x… (4 characters)');
  });

  it('keeps on a terminal what emoji and scripts need, and names the rest', () => {
    expect(inertText('👩‍💻 ❤️ می\u200cخواهم', 'terminal-line')).toBe('👩‍💻 ❤️ می\u200cخواهم');
    expect(inertText('a\u3164b\u2800c\u202ed', 'terminal-line')).toBe(
      'a<U+3164>b<U+2800>c<U+202E>d',
    );
    expect(inertText('a\r\nb\tc', 'terminal-line')).toBe('a↵b c');
    expect(inertText('a\r\nb\tc', 'terminal-paragraphs')).toBe('a\nb   c');
  });

  it('hides nothing isBlankText counts as invisible: each such character is shown, but for what terminals keep', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), (character) => {
        if (!isBlankText(character) || /\s/u.test(character)) return;
        // A hidden character: every level changes it into something visible, but for what the
        // terminal levels keep on purpose (ZWJ, ZWNJ, the variation selectors: emoji need them).
        const point = character.codePointAt(0) as number;
        const kept =
          point === 0x200c ||
          point === 0x200d ||
          (point >= 0xfe00 && point <= 0xfe0f) ||
          (point >= 0xe0100 && point <= 0xe01ef);
        for (const level of LEVELS) {
          if (kept && level.startsWith('terminal')) continue;
          expect(inertText(character, level)).not.toBe(character);
        }
      }),
      { numRuns: 5_000 },
    );
    for (const character of ['\u3164', '\u115f', '\u2800', '\u034f', '\u200b', '\u{e0041}'])
      expect(isBlankText(character)).toBe(true);
  });

  it('never lets an active character through, at any level, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.constantFrom(...LEVELS), (text, level) => {
        const shown = inertText(text, level);
        expect(shown).not.toMatch(ACTIVE);
        if (level !== 'terminal-paragraphs') expect(shown).not.toContain('\n');
        expect(shown).not.toMatch(
          /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
        );
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('timeLimitSentence', () => {
  it('says the time left and what happens then, in words true for any harness', () => {
    expect(timeLimitSentence('1:06')).toBe('1:06 left to answer: then it is withdrawn, unanswered');
  });
});
