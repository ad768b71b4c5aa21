import type { OptionSearch } from './option-search.js';

/** Keys folded per turn of the event loop: about a millisecond's work. */
const SLICE = 500;

/**
 * Folds the search keys of `searches` a slice at a time, between turns of the event loop,
 * while the person reads the question: the first letter typed then finds them ready instead
 * of folding 10,000 options at once. Stops as soon as `over()` says the question is over.
 */
export function warmSearches(searches: readonly OptionSearch[], over: () => boolean): void {
  let current = 0;
  if (searches.length === 0) return;
  const slice = (): void => {
    if (over()) return;
    if ((searches[current] as OptionSearch).warm(SLICE)) current++;
    if (current < searches.length) setImmediate(slice).unref();
  };
  setImmediate(slice).unref();
}
