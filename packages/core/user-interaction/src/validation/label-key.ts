const SPACES = / {2,}/g;
// Characters drawn as an empty space: white space, the Hangul fillers and the braille blank.
const SPACE_LIKE = /[\s\u115f\u1160\u2800\u3164\uffa0]+/gu;
// Characters drawn as nothing at all: controls, format characters (zero-width joiners and
// spaces, bidirectional marks), the other default-ignorable code points, lone surrogates.
const INVISIBLE = String.raw`[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}]`;
// Anything the two patterns above would change, or two spaces in a row.
const NEEDS_CLEANING = String.raw`[^\S ]|[\u115f\u1160\u2800\u3164\uffa0\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}]| {2}`;
// The two patterns of Unicode properties are made at their first use (the first label that is
// not plain ASCII): written as literals, they are checked against the property tables when this
// file is parsed, which every import pays for.
let patterns: { readonly invisible: RegExp; readonly needsCleaning: RegExp } | undefined;

/**
 * The key under which two labels a person could not tell apart are equal: compatibility-
 * normalised (NFKC, so a composed and a decomposed "é" match), case-folded, with invisible
 * and format characters removed and white space collapsed. Every place that matches labels
 * uses it: option labels must have distinct keys.
 */
export function labelKey(label: string): string {
  // Most labels are printable ASCII, where folding is lower-casing: skip the Unicode work.
  let doubleSpace = false;
  for (let index = 0; index < label.length; index++) {
    const code = label.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return unicodeLabelKey(label);
    if (code === 0x20 && label.charCodeAt(index + 1) === 0x20) doubleSpace = true;
  }
  return (doubleSpace ? label.replace(SPACES, ' ') : label).trim().toLowerCase();
}

function unicodeLabelKey(label: string): string {
  const normalized = label.normalize('NFKC');
  patterns ??= {
    invisible: new RegExp(INVISIBLE, 'gu'),
    needsCleaning: new RegExp(NEEDS_CLEANING, 'u'),
  };
  // Most labels have nothing to remove or collapse: one scan decides.
  const cleaned = patterns.needsCleaning.test(normalized)
    ? normalized.replace(SPACE_LIKE, ' ').replace(patterns.invisible, '').replace(SPACES, ' ')
    : normalized;
  return (
    cleaned
      .trim()
      // Upper then lower case folds more than lower case alone ("ß" and "SS", final sigma).
      .toUpperCase()
      .toLowerCase()
      .normalize('NFKC')
  );
}
