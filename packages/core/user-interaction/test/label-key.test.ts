import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createUserInteraction,
  isBlankText,
  validateAnswer,
  validateRequest,
} from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { labelKey } from '../src/validation/label-key.js';
import { fieldOf } from './support/field-of.js';

// Pairs a person sees as the same row.
const LOOK_ALIKES: [string, string, string][] = [
  ['a zero-width joiner', 'Keep files', 'Keep files\u200d'],
  ['a zero-width space', 'Yes', 'Yes\u200b'],
  ['a zero-width space inside a word', 'Keep', 'Ke\u200bep'],
  ['composed and decomposed accents', 'Caf\u00e9', 'Cafe\u0301'],
  ['case', 'Keep files', 'KEEP FILES'],
  ['doubled and surrounding spaces', 'Keep files', '  Keep   files '],
  ['a tab', 'Keep files', 'Keep\tfiles'],
  ['a no-break space', 'Keep files', 'Keep\u00a0files'],
  ['full-width letters', 'Yes', '\uff39\uff45\uff53'],
  ['a bidirectional mark', 'Yes', '\u200fYes'],
  ['a variation selector', 'Yes', 'Yes\ufe0f'],
  ['a soft hyphen', 'Keep', 'Ke\u00adep'],
  ['a Hangul filler for a space', 'Keep files', 'Keep\u3164files'],
  ['sharp s', 'Stra\u00dfe', 'STRASSE'],
  ['a control character', 'Yes', 'Yes\u0007'],
];

describe('labelKey', () => {
  it.each(LOOK_ALIKES)('equates labels that differ only by %s', (_name, first, second) => {
    expect(labelKey(second)).toBe(labelKey(first));
  });

  it.each([
    ['Keep files', 'Keep file'],
    ['Yes', 'No'],
    ['Caf\u00e9', 'Cafe'],
    ['1', '2'],
    ['\u65e5\u672c', '\u4e2d\u56fd'],
  ])('tells %j and %j apart', (first, second) => {
    expect(labelKey(first)).not.toBe(labelKey(second));
  });
});

/** The key without shortcuts: every step applied to every label. */
function referenceKey(label: string): string {
  return label
    .normalize('NFKC')
    .replace(/[\s\u115f\u1160\u2800\u3164\uffa0]+/gu, ' ')
    .replace(/[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}]/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim()
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC');
}

describe('labelKey shortcuts', () => {
  it('give the same key as every step applied to every label', () => {
    const piece = fc.constantFrom(
      ' ',
      '  ',
      '\t',
      '\u00a0',
      '\u200d',
      '\u3164',
      'e\u0301',
      '\u00df',
      'A',
      'z',
      '\u03a3',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string({ unit: 'grapheme' }),
          fc.array(piece).map((pieces) => pieces.join('')),
        ),
        (label) => {
          expect(labelKey(label)).toBe(referenceKey(label));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('look-alike labels are refused', () => {
  it.each(LOOK_ALIKES)('two labels that differ only by %s', (_name, first, second) => {
    const request = {
      question: 'What now?',
      options: [
        { label: first, value: 'keep' },
        { label: second, value: 'delete-everything' },
      ],
    };
    expect(fieldOf(request)).toBe('options[1].label');
  });

  it('in long lists too', () => {
    const options = Array.from({ length: 100 }, (_, i) => ({ label: `Option ${i}` }));
    expect(
      fieldOf({ question: 'Which?', options: [...options, { label: 'Option 7\u200d' }] }),
    ).toBe('options[100].label');
  });
});

describe('text that displays as nothing is blank', () => {
  it.each([
    ['a Hangul filler', '\u3164'],
    ['a braille blank', '\u2800'],
    ['a Hangul choseong filler', '\u115f'],
    ['a Hangul jungseong filler', '\u1160'],
    ['a half-width Hangul filler', '\uffa0'],
    ['a lone surrogate', '\ud800'],
    ['invisible characters only', '\u200b\u2060\ufe0f\u00ad'],
    ['a mix of them', ' \u3164\u2800\u200d '],
  ])('%s', (_name, text) => {
    expect(isBlankText(text)).toBe(true);
    expect(fieldOf({ question: text })).toBe('question');
    expect(fieldOf({ question: 'Which?', options: [{ label: text }] })).toBe('options[0].label');
    expect(() => validateAnswer({ question: 'Name?' }, { answer: text })).toThrow(
      expect.objectContaining({ code: 'INVALID_ANSWER' }),
    );
  });

  it('and text with a lone surrogate is refused, wherever blank text is', () => {
    expect(fieldOf({ question: 'Which one\ud800?' })).toBe('question');
    expect(fieldOf({ question: 'Which?', options: [{ label: 'Keep\udc00' }] })).toBe(
      'options[0].label',
    );
    expect(() => validateAnswer({ question: 'Name?' }, { answer: 'my-app\ud800' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ANSWER' }),
    );
  });
});

describe('every place that matches labels uses the same key', () => {
  it('an option a UI rebuilt matches by value and a label that looks the same', () => {
    const request = validateRequest({
      question: 'What now?',
      options: [{ label: 'Caf\u00e9', value: 'cafe' }, { label: 'Tea' }],
    });
    const answer = validateAnswer(request, {
      answer: 'cafe',
      option: { label: 'Cafe\u0301', value: 'cafe' },
    });
    expect(answer.option).toBe(request.options?.[0]);
    expect(() =>
      validateAnswer(request, { answer: 'cafe', option: { label: 'Tea', value: 'cafe' } }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ANSWER' }));
  });

  it('the scripted provider picks an option by its label key', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ label: 'keep  FILES' }] }));
    const answer = await interaction.ask({
      question: 'What now?',
      options: [
        { label: 'Delete', value: 'delete-everything' },
        { label: 'Keep files', value: 'keep' },
      ],
    });
    expect(answer.answer).toBe('keep');
  });
});
