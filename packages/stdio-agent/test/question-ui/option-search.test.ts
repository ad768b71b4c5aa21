import { describe, expect, it, vi } from 'vitest';
import { filterOptions, optionSearch } from '../../src/question-ui/menu/option-search.js';
import { warmSearches } from '../../src/question-ui/menu/warm-searches.js';

/** A search of `count` options that counts how many it folded. */
function counted(count: number) {
  const folded: number[] = [];
  const search = optionSearch(count, (index) => {
    folded.push(index);
    return [`Option ${index + 1}`, index % 2 === 0 ? 'Même' : undefined];
  });
  return { search, folded };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('optionSearch', () => {
  it('folds each option once, in order, when first needed', () => {
    const { search, folded } = counted(5);
    expect(folded).toEqual([]);
    expect(search.key(2)).toBe('option 3\nmeme');
    expect(search.key(1)).toBe('option 2');
    expect(folded).toEqual([0, 1, 2]);
    expect(filterOptions(search, 'MEME', undefined).matches).toEqual([0, 2, 4]);
    expect(folded).toEqual([0, 1, 2, 3, 4]);
  });

  it('folds ahead of time a slice at a time, and says when every key is folded', () => {
    const { search, folded } = counted(5);
    expect(search.warm(2)).toBe(false);
    expect(folded).toEqual([0, 1]);
    expect(search.warm(10)).toBe(true);
    expect(search.warm(10)).toBe(true);
    expect(folded).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('warmSearches', () => {
  it('folds every question between turns of the event loop, not at once', async () => {
    const first = counted(1_200);
    const second = counted(3);
    warmSearches([first.search, second.search], () => false);
    expect(first.folded).toHaveLength(0);
    await nextTurn();
    expect(first.folded.length).toBeGreaterThan(0);
    expect(first.folded.length).toBeLessThan(1_200);
    await vi.waitFor(() => expect(second.folded).toHaveLength(3));
    expect(first.folded).toHaveLength(1_200);
  });

  it('stops once the question is over', async () => {
    const { search, folded } = counted(5_000);
    let over = false;
    warmSearches([search], () => over);
    await nextTurn();
    const done = folded.length;
    over = true;
    await nextTurn();
    await nextTurn();
    expect(folded).toHaveLength(done);
    expect(done).toBeLessThan(5_000);
  });
});
