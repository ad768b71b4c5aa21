#!/usr/bin/env node
// Builds the workspace packages whose dist/ is missing or older than what it is built from
// (scripts/build-plan.mjs), each after those it depends on, with the pnpm that runs this script.
// Run as a program (`pnpm test` does), it considers every package; `pnpm start` imports it for
// the terminal agent's packages only.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildPlan, workspacePackages } from './build-plan.mjs';
import { packageManager } from './start-command.mjs';

/**
 * Builds what `targets` need that is stale, saying so on stderr. Returns the plan (see
 * `buildPlan`) and the build's exit status: 0 when it succeeded or nothing was stale.
 */
export function buildChanged(root, targets) {
  const plan = [];
  for (const target of targets) {
    for (const entry of buildPlan(root, target)) {
      if (!plan.some((other) => other.name === entry.name)) plan.push(entry);
    }
  }
  const stale = plan.filter((entry) => entry.stale !== undefined);
  if (stale.length === 0) return { plan, status: 0 };
  const why = stale.map((entry) => `${entry.name} (${entry.stale})`).join(', ');
  process.stderr.write(`Building ${why}…\n`);
  const { command, args } = packageManager(process.env);
  const filters = stale.flatMap((entry) => ['--filter', entry.name]);
  const build = spawnSync(command, [...args, ...filters, 'run', 'build'], {
    cwd: root,
    // Piped input stays for the program that follows; the build's output stays out of its stdout.
    stdio: ['ignore', process.stderr, process.stderr],
  });
  return { plan, status: build.status ?? 1 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const published = [...workspacePackages(root).values()]
    .filter(
      ({ manifest }) => manifest.private !== true && typeof manifest.scripts?.build === 'string',
    )
    .map(({ name }) => name);
  const { status } = buildChanged(root, published);
  if (status !== 0) process.stderr.write('The build failed.\n');
  process.exit(status);
}
