import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventLoopTurns } from '../../src/tools/event-loop-turns.js';
import { readIgnoreRules, WILDCARD_RULES } from '../../src/tools/ignore-rules.js';
import { randomSource } from '../support/random-source.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-ignore-');
let count = 0;

/** A seeded random source, so a failure names its seed. */
function generator(seed: number) {
  const next = randomSource(seed);
  return {
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
  };
}

const rulesOf = (text: string) => readIgnoreRules(text, eventLoopTurns());

/** What real git says of each path (relative to `folder`): ignored or not, with the rules in `folder/.gitignore`. */
function gitIgnored(folder: string, paths: readonly string[]): Map<string, boolean> {
  const output = execFileSync('git', ['check-ignore', '--no-index', '--stdin', '-v', '-n'], {
    cwd: folder,
    input: `${paths.join('\n')}\n`,
    encoding: 'utf8',
  });
  const said = new Map<string, boolean>();
  for (const line of output.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab === -1) continue;
    const source = line.slice(0, tab);
    const rule = source.slice(source.indexOf(':', source.indexOf(':') + 1) + 1);
    said.set(line.slice(tab + 1), source !== '::' && !rule.startsWith('!'));
  }
  return said;
}

describe('.gitignore rules', () => {
  it('decide as git check-ignore does, on generated rules and trees', async () => {
    // One repository; each seed's rules in a folder of their own, as a nested .gitignore.
    const repository = join(base, `g${++count}`);
    mkdirSync(repository);
    execFileSync('git', ['init', '-q'], { cwd: repository });
    let compared = 0;
    let ignoredByGit = 0;
    for (let seed = 1; seed <= 25; seed++) {
      const { chance, pick } = generator(seed);
      const folder = join(repository, `s${seed}`);
      mkdirSync(folder);
      const pieces = ['a', 'b', 'ab', '*', '?', '[ab]', 'a*', '*b', '[!a]', '.b', '\\*'];
      const rules = Array.from({ length: 30 }, () => {
        const segments = Array.from(
          { length: 1 + (chance(0.4) ? 1 : 0) + (chance(0.2) ? 1 : 0) },
          () => (chance(0.15) ? '**' : pick(pieces)),
        );
        return `${chance(0.2) ? '!' : ''}${chance(0.2) ? '/' : ''}${segments.join('/')}${chance(0.25) ? '/' : ''}`;
      });
      writeFileSync(join(folder, '.gitignore'), `# generated, seed ${seed}\n${rules.join('\n')}\n`);
      const entries: { path: string; name: string; folder: boolean; parent?: string }[] = [];
      const grow = (relative: string, depth: number) => {
        for (const name of ['a', 'b', 'ab', 'ba', '.b', '*']) {
          if (!chance(0.6)) continue;
          const path = relative === '' ? name : `${relative}/${name}`;
          const isFolder = depth < 3 && chance(0.5);
          entries.push({
            path,
            name,
            folder: isFolder,
            ...(relative !== '' && { parent: relative }),
          });
          if (isFolder) {
            mkdirSync(join(folder, path));
            grow(path, depth + 1);
          } else writeFileSync(join(folder, path), '');
        }
      };
      grow('', 0);
      if (entries.length === 0) continue;
      const said = gitIgnored(
        folder,
        entries.map((entry) => entry.path),
      );
      const ours = await rulesOf(rules.join('\n'));
      const mine = new Map<string, boolean>();
      for (const entry of entries) {
        // The walk never enters an ignored folder, so nothing below one is asked.
        if (entry.parent !== undefined && mine.get(entry.parent) !== false) continue;
        mine.set(entry.path, ours.decide(entry.path, entry.name, entry.folder) === true);
        compared++;
        if (said.get(entry.path) === true) ignoredByGit++;
        expect(`seed ${seed}: ${entry.path} ${mine.get(entry.path)}`).toBe(
          `seed ${seed}: ${entry.path} ${said.get(entry.path)}`,
        );
      }
    }
    expect(compared).toBeGreaterThan(200);
    expect(ignoredByGit).toBeGreaterThan(50);
  });

  it('read 100,000 lines giving the event loop turns, and decide from every kind of rule', async () => {
    const lines = Array.from({ length: 100_000 }, (_, index) =>
      index % 4 === 0
        ? `build-${index}/`
        : index % 4 === 1
          ? `*.tmp${index}`
          : index % 4 === 2
            ? `/out/${index}`
            : `cache${index}*`,
    );
    const immediate = new Promise<void>((resolve) => setImmediate(resolve));
    let fired = false;
    void immediate.then(() => {
      fired = true;
    });
    const rules = await rulesOf(lines.join('\n'));
    expect(fired).toBe(true);
    expect(rules.skipped).toBe(0);
    expect(rules.decide('x/build-4000', 'build-4000', true)).toBe(true);
    expect(rules.decide('x/build-4000', 'build-4000', false)).toBeUndefined();
    expect(rules.decide('a.tmp5', 'a.tmp5', false)).toBe(true);
    expect(rules.decide('out/6', '6', false)).toBe(true);
    expect(rules.decide('x/out/6', '6', false)).toBeUndefined();
    expect(rules.decide('cache7-x', 'cache7-x', false)).toBe(true);
    expect(rules.decide('src/a.ts', 'a.ts', false)).toBeUndefined();
  });

  it(`apply ${WILDCARD_RULES} rules with wildcards at most, and count the others`, async () => {
    const lines = Array.from({ length: WILDCARD_RULES + 7 }, (_, index) => `d${index}/*/x?`);
    const rules = await rulesOf(lines.join('\n'));
    expect(rules.skipped).toBe(7);
    expect(rules.decide(`d${WILDCARD_RULES - 1}/q/xy`, 'xy', false)).toBe(true);
    expect(rules.decide(`d${WILDCARD_RULES}/q/xy`, 'xy', false)).toBeUndefined();
  });
});
