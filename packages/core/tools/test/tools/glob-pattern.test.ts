import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { expandBraces, globSteps, stepsMatcher } from '../../src/tools/glob-pattern.js';
import { GLOB_LIMITS, globMatcher } from '../../src/tools/list-files-tool.js';
import { randomSource } from '../support/random-source.js';

const matches = (glob: string, path: string) => stepsMatcher(globSteps(glob))(path);

/** A seeded picker, so a failure names its seed. */
function generator(seed: number) {
  const next = randomSource(seed);
  return <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
}

describe('globs', () => {
  it('match as picomatch does (dot files too) on generated globs and paths', () => {
    const pick = generator(31);
    const pieces = ['a', 'b', '.', '*', '?', '[ab]', '[^a]', '\\*', 'ab'];
    const names = ['a', 'b', 'ab', 'ba', '.a', 'a.b', '*', 'bb'];
    let compared = 0;
    for (let round = 0; round < 400; round++) {
      const segments = Array.from({ length: 1 + Math.floor(round % 3) }, () =>
        pick([0, 1, 2]) === 0
          ? '**'
          : Array.from({ length: 1 + (round % 2) }, () => pick(pieces)).join(''),
      );
      const glob = segments.join('/');
      const reference = picomatch(glob, { dot: true });
      for (let path = 0; path < 20; path++) {
        const parts = Array.from({ length: 1 + (path % 3) }, () => pick(names));
        const file = parts.join('/');
        // picomatch lets `dir/**` match `dir` itself; git and this matcher match only inside.
        if (glob.endsWith('/**') && picomatch(glob.slice(0, -3), { dot: true })(file)) continue;
        expect(`${glob} ${file} ${globMatcher(glob, 'glob')(file)}`).toBe(
          `${glob} ${file} ${reference(file)}`,
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it('read `**` as any run of folders only when it is a whole folder name', () => {
    expect(matches('a/**/b', 'a/b')).toBe(true);
    expect(matches('a/**/b', 'a/x/y/b')).toBe(true);
    expect(matches('**/b', 'b')).toBe(true);
    expect(matches('a**b', 'a/b')).toBe(false);
    expect(matches('a/**', 'a/x/y')).toBe(true);
    expect(matches('a/**', 'a')).toBe(false);
    expect(matches('**', 'x/y/.z')).toBe(true);
    expect(matches('[]a]', ']')).toBe(true);
    expect(matches('[a', '[a')).toBe(true);
  });

  it('expand braces, nested too, and refuse more globs than the limit', () => {
    expect(expandBraces('src/{a,b{1,2}}/*.{ts,js}', 10)).toEqual([
      'src/a/*.ts',
      'src/a/*.js',
      'src/b1/*.ts',
      'src/b1/*.js',
      'src/b2/*.ts',
      'src/b2/*.js',
    ]);
    expect(expandBraces('{a}\\{b,c}', 10)).toEqual(['{a}\\{b,c}']);
    expect(expandBraces('{a,b}'.repeat(20), 256)).toBeUndefined();
    expect(() => globMatcher('{a,b}'.repeat(20), 'pattern')).toThrow(
      expect.objectContaining({ code: 'ARGUMENTS_INVALID' }),
    );
    expect(() => globMatcher('a'.repeat(GLOB_LIMITS.length + 1), 'pattern')).toThrow(
      expect.objectContaining({ code: 'ARGUMENTS_INVALID' }),
    );
    // 128 globs of 40 characters: each is allowed, all of them together are too many to match.
    const wide = `${'x'.repeat(33)}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}`;
    expect(expandBraces(wide, GLOB_LIMITS.globs)).toHaveLength(128);
    expect(() => globMatcher(wide, 'pattern')).toThrow(
      expect.objectContaining({ code: 'ARGUMENTS_INVALID' }),
    );
  });

  it('take a list: any glob of it, none of its `!globs`', () => {
    const matcher = globMatcher(['src/**/*.ts', '*.md', '!src/gen/**'], 'pattern');
    expect(['src/a.ts', 'src/gen/b.ts', 'README.md', 'x.ts'].filter(matcher)).toEqual([
      'src/a.ts',
      'README.md',
    ]);
    expect(['a.ts', 'b.md'].filter(globMatcher('!*.md', 'pattern'))).toEqual(['a.ts']);
  });

  it('match a hostile glob in time linear in the path (picomatch backtracks for hours)', () => {
    // `*a` 30 times then `b`, against names of a's: a regular expression tries every split.
    const glob = `${'*a'.repeat(30)}b`;
    const matcher = globMatcher([glob, `**/${glob}/**`], 'pattern');
    const name = 'a'.repeat(200);
    expect(matcher(name)).toBe(false);
    expect(matcher(`${name}/${name}/${name}`)).toBe(false);
    expect(matcher(`${name}b`)).toBe(true);
  });
});
