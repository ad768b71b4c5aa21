import { describe, expect, it } from 'vitest';
import { RecentAnalyses } from '../../src/policy/recent-analyses.js';

describe('RecentAnalyses', () => {
  it('keeps the last texts used, at most so many', () => {
    const recent = new RecentAnalyses<number>(2, 100);
    recent.set('a', 1);
    recent.set('b', 2);
    expect(recent.get('a')).toBe(1);
    // `b` was used last before `a`: it is the one to go.
    recent.set('c', 3);
    expect([recent.get('a'), recent.get('b'), recent.get('c')]).toEqual([1, undefined, 3]);
  });

  it('holds at most so many characters, and never a text longer than that', () => {
    const recent = new RecentAnalyses<number>(10, 10);
    recent.set('aaaa', 1);
    // Too long to keep, it pushes nothing else out.
    recent.set('x'.repeat(11), 0);
    expect([recent.get('x'.repeat(11)), recent.get('aaaa')]).toEqual([undefined, 1]);
    recent.set('bbbb', 2);
    recent.set('aaaa', 3);
    // Set again, `aaaa` counts once: 8 characters, both kept.
    expect([recent.get('bbbb'), recent.get('aaaa')]).toEqual([2, 3]);
    recent.set('cccc', 4);
    expect([recent.get('bbbb'), recent.get('aaaa'), recent.get('cccc')]).toEqual([undefined, 3, 4]);
  });

  it('weighs each text as it is told, and keeps what it holds within the budget', () => {
    const recent = new RecentAnalyses<number>(10, 100);
    recent.set('a', 1, 60);
    // Over the budget alone: never kept, and `a` stays.
    recent.set('b', 2, 101);
    expect([recent.get('a'), recent.get('b')]).toEqual([1, undefined]);
    // 60 + 50 is over: the oldest goes.
    recent.set('c', 3, 50);
    expect([recent.get('a'), recent.get('c')]).toEqual([undefined, 3]);
    // Set again lighter, `c` counts only its new weight: 10 + 90 fits.
    recent.set('c', 4, 10);
    recent.set('d', 5, 90);
    expect([recent.get('c'), recent.get('d')]).toEqual([4, 5]);
  });
});
