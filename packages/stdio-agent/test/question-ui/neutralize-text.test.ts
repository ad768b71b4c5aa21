import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutralizeText } from '../../src/text/neutralize-text.js';

// Everything that must never reach the terminal, whatever the mode.
const ACTIVE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\ufeff]/u;

describe('neutralizeText', () => {
  it('keeps printable text of any script, emoji included, as it is', () => {
    const text = 'Café — 数据库 — قاعدة — 👩‍💻 — naïve';
    expect(neutralizeText(text)).toBe(text);
  });

  it('shows escape sequences in caret notation, so none of them acts', () => {
    expect(neutralizeText('\u001b[31mred\u001b[0m')).toBe('^[[31mred^[[0m');
    expect(neutralizeText('\u001b]0;owned\u0007')).toBe('^[]0;owned^G');
    expect(neutralizeText('\u001b[2J\u001b[H')).toBe('^[[2J^[[H');
  });

  it('shows C0 controls, DEL and C1 controls inert', () => {
    expect(neutralizeText('a\u0000b\u0008c\u007fd')).toBe('a^@b^Hc^?d');
    expect(neutralizeText('\u009b2J\u0085')).toBe('<U+009B>2J<U+0085>');
  });

  it('names every bidirectional override, isolate and mark', () => {
    const marks = [
      0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f,
      0x061c,
    ];
    for (const codePoint of marks) {
      const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
      expect(neutralizeText(`a${String.fromCodePoint(codePoint)}b`)).toBe(`a<U+${hex}>b`);
    }
  });

  it('names invisible characters that could hide text, but keeps ZWJ and ZWNJ', () => {
    expect(neutralizeText('a\u200bb\ufeffc')).toBe('a<U+200B>b<U+FEFF>c');
    expect(neutralizeText('\u{e0041}')).toBe('<U+E0041>');
    expect(neutralizeText('می\u200cخواهم')).toBe('می\u200cخواهم');
  });

  it('names the other characters the contract counts as invisible: fillers, CGJ, the braille blank', () => {
    // Each shows as blank or nothing: `git\u3164push` would look like `git push`.
    for (const codePoint of [0x3164, 0x115f, 0x1160, 0xffa0, 0x034f, 0x2800, 0x17b4, 0xfff0]) {
      const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
      expect(neutralizeText(`a${String.fromCodePoint(codePoint)}b`)).toBe(`a<U+${hex}>b`);
    }
    // Variation selectors stay: emoji need them.
    expect(neutralizeText('❤️ 1️⃣ ☺︎')).toBe('❤️ 1️⃣ ☺︎');
  });

  it('replaces a lone surrogate, which no terminal can print', () => {
    expect(neutralizeText('a\ud800b')).toBe('a\ufffdb');
  });

  it('shows line breaks as ↵ and tabs as spaces in one-line text', () => {
    expect(neutralizeText('one\r\ntwo\nthree\rfour\u2028five')).toBe('one↵two↵three↵four↵five');
    expect(neutralizeText('a\tb')).toBe('a b');
  });

  it('keeps line breaks as \\n and expands tabs to stops of four in multi-line text', () => {
    expect(neutralizeText('one\r\ntwo\rthree\u2029four', { multiline: true })).toBe(
      'one\ntwo\nthree\nfour',
    );
    expect(neutralizeText('a\tb\nab\tc', { multiline: true })).toBe('a   b\nab  c');
    expect(neutralizeText('\u001b[1m\nx', { multiline: true })).toBe('^[[1m\nx');
  });

  it('never lets an active character through, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.boolean(), (text, multiline) => {
        const shown = neutralizeText(text, { multiline });
        expect(shown).not.toMatch(ACTIVE);
        if (!multiline) expect(shown).not.toContain('\n');
        expect(shown).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
      }),
      { numRuns: 2_000 },
    );
  });
});
