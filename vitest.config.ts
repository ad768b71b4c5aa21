import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

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
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
