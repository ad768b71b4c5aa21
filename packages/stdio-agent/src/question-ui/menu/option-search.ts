import { searchKey } from '../../text/search-key.js';
import type { QuestionView } from '../question-view.js';

/**
 * What a list's filter searches: each option's label and description, folded by `searchKey`
 * once per question, when first needed or ahead of time by `warm` (a list nobody filters
 * costs nothing up front).
 */
export interface OptionSearch {
  readonly count: number;
  /** The folded label and description of option `index`, a line break between them. */
  key(index: number): string;
  /** Folds up to `count` more keys ahead of time; true once every key is folded. */
  warm(count: number): boolean;
}

/** The search of `count` options, whose texts `textOf` gives (the label, then the description). */
export function optionSearch(
  count: number,
  textOf: (index: number) => readonly [string, string | undefined],
): OptionSearch {
  const keys: string[] = [];
  /** Keys are folded in list order: the first `keys.length` are done. */
  const foldUpTo = (end: number): void => {
    for (let option = keys.length; option < end; option++) {
      const [label, description] = textOf(option);
      // Folded text has no line break: a query never spans the label and the description.
      keys.push(
        description === undefined
          ? searchKey(label)
          : `${searchKey(label)}\n${searchKey(description)}`,
      );
    }
  };
  return {
    count,
    key(index) {
      if (index >= keys.length) foldUpTo(index + 1);
      return keys[index] as string;
    },
    warm(more) {
      foldUpTo(Math.min(count, keys.length + more));
      return keys.length === count;
    },
  };
}

/**
 * The search of a question's options, as the screen shows them (neutralised): their labels.
 * Not their descriptions, which the list shows only for the focused option: a filter that
 * matched one would keep an option whose visible text does not hold what was typed.
 */
export function questionSearch(view: QuestionView): OptionSearch {
  return optionSearch(view.optionCount, (index) => [view.label(index), undefined]);
}

/** The options a filter matches: what was typed, its folded query, and their indexes in order. */
export interface OptionFilter {
  readonly text: string;
  /** The text folded by `searchKey`; left empty when nothing could match (see `filterOptions`). */
  readonly query: string;
  readonly matches: readonly number[];
  /** The filter this one narrowed, so that Backspace widens without searching again. */
  readonly previous: OptionFilter | undefined;
}

/** How many earlier filters are looked through for one to start from. */
const LOOK_BACK = 32;

/**
 * The options whose label or description contains `text` (folded by `searchKey`). A text that
 * contains an earlier one searches only what that one matched (folding one character at a
 * time, a longer text folds to a longer query); going back to an earlier text (Backspace)
 * takes its matches as they were; otherwise every option is searched once. Text added to one
 * that matched nothing is not even folded: a long typed answer costs nothing per key.
 */
export function filterOptions(
  search: OptionSearch,
  text: string,
  current: OptionFilter | undefined,
): OptionFilter {
  let base: OptionFilter | undefined;
  let earlier = current;
  for (let step = 0; earlier !== undefined && step < LOOK_BACK; step++) {
    if (earlier.text === text) return earlier;
    if (base === undefined && text.includes(earlier.text)) base = earlier;
    earlier = earlier.previous;
  }
  if (base !== undefined && base.matches.length === 0) {
    return { text, query: '', matches: base.matches, previous: base };
  }
  const query = searchKey(text);
  const matches: number[] = [];
  if (base !== undefined) {
    for (const index of base.matches) if (search.key(index).includes(query)) matches.push(index);
  } else {
    for (let index = 0; index < search.count; index++) {
      if (search.key(index).includes(query)) matches.push(index);
    }
  }
  // A narrower filter keeps the one it narrowed; one searched from scratch starts anew.
  return { text, query, matches, previous: base };
}

/** Where option `index` is among the matches, or -1: a binary search, the matches being in order. */
export function matchPosition(filter: OptionFilter, index: number): number {
  const { matches } = filter;
  let low = 0;
  let high = matches.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = matches[middle] as number;
    if (value === index) return middle;
    if (value < index) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
