import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    // Leak tests read heap figures after a forced collection.
    execArgv: ['--expose-gc'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
