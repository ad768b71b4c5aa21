import type { TestProjectInlineConfiguration } from 'vitest/config';

/** One test project per package (and the scripts); each keeps its tests in its own `test/` folder. */
function project(name: string, root: string): TestProjectInlineConfiguration {
  return {
    // Inherit the root options (timeouts, `--expose-gc` for the leak tests).
    extends: true,
    test: {
      name,
      root,
      include: ['test/**/*.test.ts'],
      environment: 'node',
    },
  };
}

export default [
  project('user-interaction', './packages/core/user-interaction'),
  project('agent', './packages/core/agent'),
  project('tools', './packages/core/tools'),
  project('stdio-agent', './packages/stdio-agent'),
  project('acp', './packages/acp'),
  // The repository's own scripts (`pnpm start`).
  project('scripts', './scripts'),
] satisfies TestProjectInlineConfiguration[];
