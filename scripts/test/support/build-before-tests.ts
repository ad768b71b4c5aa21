import { fileURLToPath } from 'node:url';
import { buildChanged } from '../../build-changed.mjs';
import { publishedPackages } from '../../check-packages.mjs';

// Vitest's global setup: some tests read what the build made (a package's dist/, a bin), so a
// run builds first what is missing or older than its sources, as `pnpm test` does, and a run of
// one project on a fresh clone (`vitest run --project user-interaction`) works as well. Vitest
// may call this once per project: the build runs once per process.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const run = globalThis as { dshBuiltForTests?: number };

/** Builds every published package of `root` that is stale; the build's exit status. */
export function buildForTests(root: string): number {
  const names = publishedPackages(root)
    .filter(({ manifest }: { manifest: { scripts?: { build?: unknown } } }) => {
      return typeof manifest.scripts?.build === 'string';
    })
    .map(({ name }: { name: string }) => name);
  return buildChanged(root, names).status;
}

export default function setup(): void {
  run.dshBuiltForTests ??= buildForTests(ROOT);
  if (run.dshBuiltForTests !== 0) {
    throw new Error('The build failed: the tests that read dist/ cannot run (see above).');
  }
}
