import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

// Whatever a test starts (a bin, `pnpm start`) saves its conversations here, never in the
// person's own state folder; removed when the run ends. Vitest reads this file again for each
// project that extends it: one folder for the whole run.
const run = globalThis as { dshTestStateHome?: string };
run.dshTestStateHome ??= makeStateHome();
const stateHome = run.dshTestStateHome;

function makeStateHome(): string {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-test-state-'));
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
    env: { XDG_STATE_HOME: stateHome },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
