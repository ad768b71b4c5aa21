import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

export default defineConfig({
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
