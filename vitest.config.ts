import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

// Whatever a test starts (a bin, `pnpm start`) saves its conversations here, never in the
// person's own state folder; removed when the run ends.
const stateHome = mkdtempSync(join(tmpdir(), 'dsh-test-state-'));
process.once('exit', () => rmSync(stateHome, { recursive: true, force: true }));

export default defineConfig({
  // Workspace packages resolve to their sources (the "dsh-source" export condition): unit tests
  // need no build. Tests run in Vite's server (SSR) environment, hence `ssr.resolve`.
  ssr: { resolve: { conditions: ['dsh-source', ...defaultServerConditions] } },
  test: {
    projects,
    // Leak tests read heap figures after a forced collection.
    execArgv: ['--expose-gc'],
    // The JSON report is what CI counts its "N passed, N failed" line from.
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    env: { XDG_STATE_HOME: stateHome },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
