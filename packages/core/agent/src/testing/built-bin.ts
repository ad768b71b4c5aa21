import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type TemporaryFolder, temporaryFolder } from './state-folder.js';

/** A package's built bin (`dist/bin.js`), for tests that run what people run. */
export interface BuiltBin {
  /** The bin's path. */
  readonly path: string;
  /** Throws a clear message when the package has not been built. */
  assertBuilt(): void;
  /**
   * Where the bin saves conversations unless a test names a folder (`XDG_STATE_HOME`), made
   * by `testStateHome`: empty it between test files, remove it at the end.
   */
  readonly stateHome: TestStateHome;
}

/** A temporary state home for the bins a test file runs. */
export interface TestStateHome extends TemporaryFolder {
  /** Removes everything in it, and leaves it there, empty. */
  empty(): void;
}

/** The built bin of the package whose root folder is `packageRoot` (a `file:` URL). */
export function builtBin(packageRoot: URL, packageName: string): BuiltBin {
  const path = fileURLToPath(new URL('dist/bin.js', packageRoot));
  return {
    path,
    stateHome: testStateHome(),
    assertBuilt() {
      if (!existsSync(path)) {
        throw new Error(
          `${path} is missing: these tests run the built program. Build it first ("pnpm build" at the root, or "pnpm --filter ${packageName} build").`,
        );
      }
    },
  };
}

/**
 * Where a bin saves conversations unless a test names a folder (`XDG_STATE_HOME`): never the
 * home folder of whoever runs the tests. Empty it after each test file (`afterAll(home.empty)`)
 * and remove it when the tests end (`home.remove()`).
 */
export function testStateHome(): TestStateHome {
  const folder = temporaryFolder('dsh-test-state-');
  return {
    ...folder,
    empty() {
      folder.remove();
      mkdirSync(folder.path, { mode: 0o700 });
    },
  };
}

/** The text of a saved session's file: one finished turn, `prompt` answered with "Hi.". */
export function savedSessionText(id: string, cwd: string, prompt: string): string {
  return [
    JSON.stringify({
      v: 1,
      type: 'session',
      id,
      cwd,
      createdAt: '2026-01-01T00:00:00.000Z',
      title: prompt,
    }),
    JSON.stringify({ v: 1, type: 'prompt', text: prompt }),
    '{"v":1,"type":"assistant","text":"Hi."}',
    '{"v":1,"type":"turn-end","reason":"finished"}',
    '',
  ].join('\n');
}
