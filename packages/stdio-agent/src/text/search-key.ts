// Letters that no decomposition takes apart, folded as a person typing plain letters writes them.
const LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ı: 'i',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
};
const MARKS = /\p{M}/gu;
const SPACE = /^\s$/u;
// Drawn as nothing: controls, format characters (zero-width joiners, bidirectional marks).
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}]$/u;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const folded = new Map<string, string>();
/** Code points kept folded: enough for any alphabet, small enough to never matter. */
const KEPT = 4_096;

/**
 * One code point as a search compares it: compatibility-decomposed (a full-width "Ａ" is "a",
 * "ﬁ" is "fi"), without its accents, case-folded ("ẞ" and "ß" are "ss", a final "ς" is "σ"),
 * white space as a space, an invisible character as nothing. Context-free, so that a label
 * and what is typed fold alike, one code point at a time.
 */
function foldCodePoint(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x80) {
    if (code >= 0x41 && code <= 0x5a) return String.fromCharCode(code + 32);
    return code >= 0x20 && code !== 0x7f ? character : SPACE.test(character) ? ' ' : '';
  }
  let result = folded.get(character);
  if (result !== undefined) return result;
  if (SPACE.test(character)) result = ' ';
  else if (INVISIBLE.test(character)) result = '';
  else {
    const bare = character.normalize('NFKD').replace(MARKS, '');
    result = '';
    // Upper then lower case folds more than lower case alone ("ß" to "ss", "ς" to "σ").
    for (const piece of bare.toUpperCase().toLowerCase()) result += LETTERS[piece] ?? piece;
  }
  if (folded.size >= KEPT) folded.clear();
  folded.set(character, result);
  return result;
}

/** Per BMP code unit: 0 not seen yet, 1 folds to itself, 2 folds to something else. */
let bmpKinds: Uint8Array | undefined;
const SAME = 1;
const CHANGED = 2;
/** What each BMP code unit of kind CHANGED folds to. */
const bmpFolded: string[] = [];
/** Code points beyond the BMP (emoji, mostly) that fold to themselves. */
const astralSame = new Set<number>();

/**
 * The text as a search compares it: case- and accent-insensitive, compatibility characters as
 * their plain letters, "ß" as "ss"; "cafe" is found in "Café" and "ＣＡＦＥ". Linear in the text;
 * a run of characters that fold to themselves (most letters of most scripts) is copied whole.
 */
export function searchKey(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase();
  bmpKinds ??= new Uint8Array(0x10000);
  let key = '';
  let copied = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const pair = code >= 0xd800 && code <= 0xdbff && index + 1 < text.length;
    if (!pair) {
      if (code >= 0x20 && code < 0x7f && (code < 0x41 || code > 0x5a)) continue;
      const kind = bmpKinds[code];
      if (kind === SAME) continue;
      let piece = kind === CHANGED ? bmpFolded[code] : undefined;
      if (piece === undefined) {
        const character = text[index] as string;
        piece = foldCodePoint(character);
        bmpKinds[code] = piece === character ? SAME : CHANGED;
        if (piece === character) continue;
        bmpFolded[code] = piece;
      }
      key += text.slice(copied, index) + piece;
      copied = index + 1;
      continue;
    }
    const point = text.codePointAt(index) as number;
    const length = point > 0xffff ? 2 : 1;
    if (astralSame.has(point)) {
      index += length - 1;
      continue;
    }
    const character = String.fromCodePoint(point);
    const piece = foldCodePoint(character);
    if (piece !== character) {
      key += text.slice(copied, index) + piece;
      copied = index + length;
    } else if (length === 2 && astralSame.size < KEPT) {
      astralSame.add(point);
    }
    index += length - 1;
  }
  return copied === 0 ? text : key + text.slice(copied);
}

/** A part of a text, from `start` to `end` (UTF-16 indexes). */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Where `query` (a `searchKey`) occurs in `text`, each occurrence as the range of the text it
 * was folded from (accents and marks included), in order and without overlap. Costs the
 * length of the text: call it for the rows on screen only.
 */
export function searchMatches(text: string, query: string): TextRange[] {
  if (query === '') return [];
  let key = '';
  // For each character of the key: the start and end of the text it came from.
  const starts: number[] = [];
  const ends: number[] = [];
  let index = 0;
  for (const character of text) {
    const end = index + character.length;
    const piece = foldCodePoint(character);
    if (piece === '' && ends.length > 0) {
      // A mark or an invisible character belongs to the character before it.
      ends[ends.length - 1] = end;
    }
    for (let offset = 0; offset < piece.length; offset++) {
      starts.push(index);
      ends.push(end);
    }
    key += piece;
    index = end;
  }
  const ranges: TextRange[] = [];
  let from = key.indexOf(query);
  while (from !== -1) {
    const last = from + query.length - 1;
    const start = starts[from] as number;
    const previous = ranges[ranges.length - 1];
    // Two occurrences folded from one character ("ß" for "ss") are one range.
    if (previous !== undefined && start < previous.end) {
      ranges[ranges.length - 1] = { start: previous.start, end: ends[last] as number };
    } else {
      ranges.push({ start, end: ends[last] as number });
    }
    from = key.indexOf(query, from + query.length);
  }
  return ranges;
}
