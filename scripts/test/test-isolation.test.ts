import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import projects, { ISOLATED_TEST_FILES } from '../../vitest.workspace.ts';

// Test files share their worker's modules unless vitest.workspace.ts lists them as isolated: a
// module mock or a heap figure in a shared worker would reach, or be spoiled by, other files.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A hook registered at a module's top level. */
const TOP_LEVEL_HOOK = /^(?:after|before)(?:Each|All)\(/m;
const THIS_FILE = fileURLToPath(import.meta.url);
const NEEDS_ISOLATION =
  /\bvi\.(?:do)?[mM]ock\(|\bgc\?*\.?\(|heapUsed|memoryUsage\(|process\.emit\(['"]SIG|spyOn\(process, 'kill'\)/;

/** The shared projects: their name and folder. */
const shared = projects
  .map((entry) => entry.test)
  .filter((test) => test?.isolate === false)
  .map((test) => ({ name: String(test?.name), root: join(ROOT, String(test?.root)) }));

function testFiles(root: string): string[] {
  return readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/${file.split('\\').join('/')}`)
    .sort();
}

describe('test isolation', () => {
  it('covers every package', () => {
    expect(shared.map((project) => project.name)).toEqual([
      'user-interaction',
      'agent',
      'tools',
      'stdio-agent',
      'acp',
      'mcp',
      'scripts',
    ]);
  });

  it('lists every file that mocks a module, reads the heap or signals the process, and only files that exist', () => {
    for (const { name, root } of shared) {
      const listed = ISOLATED_TEST_FILES[name] ?? [];
      const needing = testFiles(root).filter(
        // This file names what it looks for, and needs no isolation.
        (file) =>
          join(root, file) !== THIS_FILE &&
          NEEDS_ISOLATION.test(readFileSync(join(root, file), 'utf8')),
      );
      expect({ name, missing: needing.filter((file) => !listed.includes(file)) }).toEqual({
        name,
        missing: [],
      });
      for (const file of listed)
        expect(existsSync(join(root, file)), `${name}: ${file}`).toBe(true);
    }
  });

  it('registers hooks for every file only in each-file.ts: a shared support module runs once per worker', () => {
    for (const { name, root } of shared) {
      const support = join(root, 'test', 'support');
      if (!existsSync(support)) continue;
      const hooking = readdirSync(support, { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.[cm]?[jt]s$/.test(file) && !file.endsWith('each-file.ts'))
        .filter((file) => TOP_LEVEL_HOOK.test(readFileSync(join(support, file), 'utf8')));
      expect({ name, hooking }).toEqual({ name, hooking: [] });
    }
    expect(TOP_LEVEL_HOOK.test('const a = 1;\nafterEach(stopAgents);\n')).toBe(true);
    expect(TOP_LEVEL_HOOK.test('  afterEach(() => {});')).toBe(false);
  });

  it('recognises what needs isolation', () => {
    expect(NEEDS_ISOLATION.test("vi.mock('node:fs', () => ({}))")).toBe(true);
    expect(NEEDS_ISOLATION.test('vi.doMock("openai")')).toBe(true);
    expect(NEEDS_ISOLATION.test('globalThis.gc?.()')).toBe(true);
    expect(NEEDS_ISOLATION.test('process.memoryUsage().rss')).toBe(true);
    expect(NEEDS_ISOLATION.test('const heap = stats.heapUsed')).toBe(true);
    expect(NEEDS_ISOLATION.test("process.emit('SIGCONT', 'SIGCONT')")).toBe(true);
    expect(NEEDS_ISOLATION.test("vi.spyOn(process, 'kill')")).toBe(true);
    expect(NEEDS_ISOLATION.test('vi.fn(); vi.useFakeTimers()')).toBe(false);
  });
});
