// Which workspace packages must be built before a program can start: those whose dist/ is
// missing, incomplete, or older than what it is built from. Plain Node, no dependency: it runs
// before anything is built, on every `pnpm start`, so it only reads file times.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

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
    let text;
    try {
      text = readFileSync(join(dir, 'package.json'), 'utf8');
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      throw error;
    }
    const manifest = JSON.parse(text);
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
 * The newest modification time under `dir`, of its files and of its folders (a folder's time
 * changes when an entry is added, removed or renamed, so a deleted source counts as a change),
 * as `{ path, mtimeMs }` if newer than `newest`, else `newest`. Plain loops and paths joined
 * by hand: this runs once per `pnpm start`, in code V8 has not compiled yet, where `path.join`
 * cost more than the stats (10 of 16 ms of CPU for the 350 entries of the terminal agent's
 * sources, on a busy machine).
 */
function newestUnder(dir, newest) {
  let found = newest;
  const mtimeMs = statSync(dir).mtimeMs;
  if (mtimeMs > found.mtimeMs) found = { path: dir, mtimeMs };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}${sep}${entry.name}`;
    if (entry.isDirectory()) {
      found = newestUnder(path, found);
      continue;
    }
    const time = statSync(path).mtimeMs;
    if (time > found.mtimeMs) found = { path, mtimeMs: time };
  }
  return found;
}

/** The times of every file under `dir`, its subfolders' included. */
function fileTimesUnder(dir, times = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}${sep}${entry.name}`;
    if (entry.isDirectory()) fileTimesUnder(path, times);
    else times.push(statSync(path).mtimeMs);
  }
  return times;
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

/** The newest of the files at the workspace root that every build reads. */
function newestShared(root) {
  let newest = { path: '', mtimeMs: 0 };
  for (const name of SHARED_FILES) {
    const path = join(root, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats !== undefined && stats.mtimeMs > newest.mtimeMs)
      newest = { path, mtimeMs: stats.mtimeMs };
  }
  return newest;
}

/** The newest of what the package is built from (`src/`, its config, the shared config). */
function newestInput(dir, shared) {
  let newest = { path: '', mtimeMs: 0 };
  for (const name of readdirSync(dir)) {
    if (name === 'src') newest = newestUnder(`${dir}${sep}src`, newest);
    else if (CONFIG_FILE.test(name)) {
      const path = join(dir, name);
      const mtimeMs = statSync(path).mtimeMs;
      if (mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
    }
  }
  return shared.mtimeMs > newest.mtimeMs ? shared : newest;
}

/**
 * When the package's dist/ was written, as `{ oldest, newest }`: the times of the files its
 * manifest promises, which each build writes (a build that stops half way leaves one missing),
 * so that the rest of dist/ (chunks, maps) need not be read; of every file in dist/ when it
 * promises none. Or `{ missing }`, a promised file that is not there; or undefined: never built.
 */
function outputTimes(dir, manifest) {
  const dist = join(dir, 'dist');
  if (statSync(dist, { throwIfNoEntry: false }) === undefined) return undefined;
  const promised = promisedOutputs(manifest);
  const times = [];
  for (const path of promised) {
    const stats = statSync(join(dir, path), { throwIfNoEntry: false });
    if (stats === undefined) return { missing: path };
    times.push(stats.mtimeMs);
  }
  if (promised.length === 0) fileTimesUnder(dist, times);
  if (times.length === 0) return undefined;
  return { oldest: Math.min(...times), newest: Math.max(...times) };
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
  const shared = newestShared(root);
  const plan = [];
  const times = new Map();
  for (const { name, dir, manifest } of inBuildOrder(target, packages)) {
    const entry = { name, dir, manifest, stale: undefined };
    plan.push(entry);
    if (typeof manifest.scripts?.build !== 'string') continue;
    const built = outputTimes(dir, manifest);
    times.set(name, built);
    if (built === undefined) {
      entry.stale = 'never built';
      continue;
    }
    if (built.missing !== undefined) {
      entry.stale = `${built.missing.replace(/^\.\//, '')} is missing`;
      continue;
    }
    const input = newestInput(dir, shared);
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
      if (dependencyBuilt?.newest !== undefined && dependencyBuilt.newest > built.oldest) {
        entry.stale = `${dependency} was built after it`;
        break;
      }
    }
  }
  return plan;
}
