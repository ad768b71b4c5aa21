// Which workspace packages must be built before a program can start: those whose dist/ is
// missing, incomplete, or older than what it is built from. Plain Node, no dependency: it runs
// before anything is built, on every `pnpm start`, so it only reads file times.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Files at a package's root that its build reads, besides `src/`. */
const CONFIG_FILE = /^(package\.json|tsconfig(\..+)?\.json|tsup\.config\.[cm]?[jt]s)$/;
/** Files at the workspace root that every build reads. */
const SHARED_FILES = ['tsconfig.base.json', 'tsup.config.base.ts'];

/** The package folders the workspace lists (`packages/*`, `bench`…), from pnpm-workspace.yaml. */
function workspaceFolders(root) {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\s*\n((?:[ \t]+-.*\n?)+)/m.exec(text)?.[1] ?? '';
  const folders = [];
  for (const line of block.split('\n')) {
    const pattern = /^\s*-\s*['"]?([^'"#\s]+)['"]?/.exec(line)?.[1];
    if (pattern === undefined) continue;
    if (!pattern.endsWith('/*')) {
      folders.push(join(root, pattern));
      continue;
    }
    const parent = join(root, pattern.slice(0, -2));
    if (!existsSync(parent)) continue;
    for (const entry of readdirSync(parent, { withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(join(parent, entry.name));
    }
  }
  return folders;
}

/** The workspace's packages by name: `{ name, dir, manifest }`. */
export function workspacePackages(root) {
  const packages = new Map();
  for (const dir of workspaceFolders(root)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof manifest.name === 'string')
      packages.set(manifest.name, { name: manifest.name, dir, manifest });
  }
  return packages;
}

/** The names of the workspace packages `manifest` depends on. */
function workspaceDependencies(manifest, packages) {
  const all = { ...manifest.dependencies, ...manifest.peerDependencies };
  return Object.keys(all).filter(
    (name) => packages.has(name) && String(all[name]).startsWith('workspace:'),
  );
}

/** `target` and the workspace packages it needs, each after the ones it depends on. */
function inBuildOrder(target, packages) {
  const order = [];
  const seen = new Set();
  const visit = (name, path) => {
    if (path.includes(name))
      throw new Error(`Workspace packages depend on each other: ${[...path, name].join(' -> ')}`);
    if (seen.has(name)) return;
    const found = packages.get(name);
    if (found === undefined) throw new Error(`No workspace package is named ${name}.`);
    for (const dependency of workspaceDependencies(found.manifest, packages)) {
      visit(dependency, [...path, name]);
    }
    seen.add(name);
    order.push(found);
  };
  visit(target, []);
  return order;
}

/**
 * Every file and folder under `dir` with its modification time: a folder's time changes when
 * an entry is added, removed or renamed, so a deleted source counts as a change.
 */
function* entriesUnder(dir) {
  yield { path: dir, mtimeMs: statSync(dir).mtimeMs, directory: true };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* entriesUnder(path);
    else yield { path, mtimeMs: statSync(path).mtimeMs, directory: false };
  }
}

/** The paths under `./dist/` that the manifest promises (`exports`, `bin`, `main`, `types`). */
function promisedOutputs(manifest) {
  const paths = [];
  const collect = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/') || value.startsWith('dist/')) paths.push(value);
    } else if (value !== null && typeof value === 'object') {
      for (const inner of Object.values(value)) collect(inner);
    }
  };
  collect([manifest.exports, manifest.bin, manifest.main, manifest.module, manifest.types]);
  return paths;
}

/** The newest of what the package is built from (`src/`, its config, the shared config). */
function newestInput(root, dir) {
  let newest = { path: '', mtimeMs: 0 };
  const consider = (entry) => {
    if (entry.mtimeMs > newest.mtimeMs) newest = entry;
  };
  if (existsSync(join(dir, 'src')))
    for (const entry of entriesUnder(join(dir, 'src'))) consider(entry);
  for (const name of readdirSync(dir)) {
    if (CONFIG_FILE.test(name))
      consider({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs });
  }
  for (const name of SHARED_FILES) {
    const path = join(root, name);
    if (existsSync(path)) consider({ path, mtimeMs: statSync(path).mtimeMs });
  }
  return newest;
}

/** When the package's dist/ was written: its oldest and newest file, or undefined with none. */
function outputTimes(dir) {
  const dist = join(dir, 'dist');
  if (!existsSync(dist)) return undefined;
  let oldest = Number.POSITIVE_INFINITY;
  let newest = 0;
  for (const entry of entriesUnder(dist)) {
    if (entry.directory) continue;
    oldest = Math.min(oldest, entry.mtimeMs);
    newest = Math.max(newest, entry.mtimeMs);
  }
  return newest === 0 ? undefined : { oldest, newest };
}

/**
 * The packages `target` needs (`{ name, dir, manifest, stale }`), each after those it depends
 * on, with `stale`: why it must be
 * built (its dist/ is missing or incomplete, a source, a folder or a config file changed after
 * it was built, or a package it depends on is rebuilt or was built after it), or `undefined`.
 * A package that has no build script is never stale.
 */
export function buildPlan(root, target) {
  const packages = workspacePackages(root);
  const plan = [];
  const times = new Map();
  for (const { name, dir, manifest } of inBuildOrder(target, packages)) {
    const entry = { name, dir, manifest, stale: undefined };
    plan.push(entry);
    if (typeof manifest.scripts?.build !== 'string') continue;
    const built = outputTimes(dir);
    times.set(name, built);
    const missing = promisedOutputs(manifest).find((path) => !existsSync(join(dir, path)));
    if (built === undefined) {
      entry.stale = 'never built';
      continue;
    }
    if (missing !== undefined) {
      entry.stale = `${missing.replace(/^\.\//, '')} is missing`;
      continue;
    }
    const input = newestInput(root, dir);
    if (input.mtimeMs > built.oldest) {
      entry.stale = `${relative(root, input.path)} changed`;
      continue;
    }
    for (const dependency of workspaceDependencies(manifest, packages)) {
      const before = plan.find((other) => other.name === dependency);
      if (before?.stale !== undefined) {
        entry.stale = `${dependency} is rebuilt`;
        break;
      }
      const dependencyBuilt = times.get(dependency);
      if (dependencyBuilt !== undefined && dependencyBuilt.newest > built.oldest) {
        entry.stale = `${dependency} was built after it`;
        break;
      }
    }
  }
  return plan;
}
