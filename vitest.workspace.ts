import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The test files that need a module registry and a process of their own: they mock a module
 * (`vi.mock`), read heap figures after a forced collection, send the process signals (whose
 * listeners are the whole process's), or check a module's state before anything else loads it. Every other file shares its worker's modules with the files before it,
 * which saves the suite a third of its time. `scripts/test/test-isolation.test.ts` fails when a
 * file that mocks a module, reads the heap or signals the process is missing here.
 */
export const ISOLATED_TEST_FILES: Readonly<Record<string, readonly string[]>> = {
  'user-interaction': ['test/leak.test.ts'],
  agent: [
    'test/files/read-open-file.test.ts',
    'test/models/lazy-openai.test.ts',
    'test/session/session-durability.test.ts',
    'test/session/session-open-cost.test.ts',
    'test/session/session-read-cost.test.ts',
  ],
  'stdio-agent': [
    'test/question-ui/leak.test.ts',
    'test/question-ui/lifecycle-input-end.test.ts',
    'test/question-ui/lifecycle-process.test.ts',
    'test/question-ui/lifecycle-queue.test.ts',
    'test/question-ui/suspend.test.ts',
    'test/question-ui/text-width-estimate.test.ts',
    'test/terminal-agent/terminal-agent-suspend.test.ts',
  ],
  acp: ['test/questions/leak.test.ts', 'test/server/server-leak.test.ts'],
  tools: ['test/policy/command-reader-missing.test.ts'],
};

/** A package's test setup run around each of its test files, when it has one. */
const EACH_FILE = 'test/support/each-file.ts';

/**
 * One test project per package (and the scripts); each keeps its tests in its own `test/` folder.
 * A package with files that need isolation gets a second project for them, `<name> (isolated)`.
 */
function project(name: string, root: string): TestProjectInlineConfiguration[] {
  const isolated = ISOLATED_TEST_FILES[name] ?? [];
  // What every test file of the package needs before and after it (ending what its tests
  // started, removing their folders): hooks registered at a shared support module's top level
  // would reach only the first file of a worker.
  const setupFiles = existsSync(join(root, EACH_FILE)) ? [EACH_FILE] : [];
  const shared: TestProjectInlineConfiguration = {
    // Inherit the root options (timeouts, `--expose-gc` for the leak tests).
    extends: true,
    test: {
      name,
      root,
      include: ['test/**/*.test.ts'],
      exclude: [...isolated],
      environment: 'node',
      setupFiles,
      isolate: false,
    },
  };
  if (isolated.length === 0) return [shared];
  return [
    shared,
    {
      extends: true,
      test: {
        name: `${name} (isolated)`,
        root,
        include: [...isolated],
        environment: 'node',
        setupFiles,
        isolate: true,
      },
    },
  ];
}

export default [
  ...project('user-interaction', './packages/core/user-interaction'),
  ...project('agent', './packages/core/agent'),
  ...project('tools', './packages/core/tools'),
  ...project('stdio-agent', './packages/stdio-agent'),
  ...project('acp', './packages/acp'),
  ...project('mcp', './packages/mcp'),
  // The repository's own scripts (`pnpm start`).
  ...project('scripts', './scripts'),
] satisfies TestProjectInlineConfiguration[];
