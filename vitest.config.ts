import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

// One folder for the whole run, removed when it ends: whatever a test starts (a bin, `pnpm
// start`) saves its conversations in its `state/`, never in the person's own state folder, and
// every temporary file or folder of a test or of what it starts is made in its `tmp/` (TMPDIR),
// so that nothing is left behind even by a process a test kills with SIGKILL. Vitest reads this
// file again for each project that extends it, hence the one folder kept on `globalThis`.
const run = globalThis as { dshTestRunFolder?: string };
run.dshTestRunFolder ??= makeRunFolder();
const runFolder = run.dshTestRunFolder;

function makeRunFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-test-run-'));
  mkdirSync(join(folder, 'state'), { mode: 0o700 });
  // As a system's temporary folder is: a test runs the bin as another user, which must be
  // able to make its own folders there. Others may pass through the run's folder, not list it.
  chmodSync(folder, 0o711);
  mkdirSync(join(folder, 'tmp'));
  chmodSync(join(folder, 'tmp'), 0o1777);
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

export default defineConfig({
  // Workspace packages resolve to their sources (the "dsh-source" export condition): unit tests
  // need no build. Tests run in Vite's server (SSR) environment, hence `ssr.resolve`.
  ssr: { resolve: { conditions: ['dsh-source', ...defaultServerConditions] } },
  test: {
    projects,
    // Vitest's default is one worker less than the cores: one worker on a two-core machine,
    // where most files wait on child processes and pseudo-terminals rather than compute.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Leak tests read heap figures after a forced collection.
    execArgv: ['--expose-gc'],
    // The JSON report is what CI counts its "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    env: { XDG_STATE_HOME: join(runFolder, 'state'), TMPDIR: join(runFolder, 'tmp') },
    // What tests read of the build (dist/, the bins) is built first when missing or stale.
    globalSetup: [
      fileURLToPath(new URL('scripts/test/support/build-before-tests.ts', import.meta.url)),
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
