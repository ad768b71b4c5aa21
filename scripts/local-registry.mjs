// Installable tarballs of the published packages, and an npm registry on loopback that serves
// them with every package they need, so that `npm install dsh-tools` works in a fresh project
// with no network: what a person installing from npm gets, before anything is published.
//
//   node scripts/local-registry.mjs [folder]
//
// packs every published package into `folder` (default: a new temporary folder), serves it, and
// prints the `npm install --registry …` to run in a project of your own. The third-party packages
// are packed from the workspace's own node_modules (the versions the lockfile chose), so nothing
// is downloaded. The tarballs of ours stay in `folder`: `npm install <folder>/dsh-tools-0.1.0.tgz`
// works against this registry too.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishedPackages } from './check-packages.mjs';

/** The folder of the installed package `name` as Node would find it from `from`, or undefined. */
function findPackage(from, name) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return realpathSync(dirname(candidate));
    if (dirname(dir) === dir) return undefined;
  }
}

/** The names a package needs installed beside it: dependencies and required peers. */
function neededNames(manifest) {
  const optionalPeers = Object.entries(manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta?.optional === true)
    .map(([name]) => name);
  return [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optionalPeers.includes(name)),
  ];
}

/** A tarball of the package folder `dir` as npm lays one out (`package/…`), without node_modules. */
function tarFolder(dir, tarball) {
  const result = spawnSync(
    'tar',
    [
      '-czf',
      tarball,
      '--exclude=./node_modules',
      // The pnpm store links files with the same content: npm extracts no hard link, so each is a file.
      '--hard-dereference',
      '--transform=s,^\\.,package,',
      // A file of the store is a hard link of the same file in every checkout on the machine:
      // another checkout adding or removing its link (an install, a worktree removed) changes
      // the file's ctime while tar reads it, never its bytes (the store never rewrites a file).
      // GNU tar then says "file changed as we read it" and exits 1; that alone is no failure.
      '--warning=no-file-changed',
      '-C',
      dir,
      '.',
    ],
    { encoding: 'utf8' },
  );
  if (result.error !== undefined) throw result.error;
  if (result.status === 0 || (result.status === 1 && result.stderr === '')) return;
  throw new Error(`tar of ${dir} failed (status ${result.status}): ${result.stderr}`);
}

/**
 * Packs every published package of the workspace at `root` into `folder` (`pnpm pack`, which
 * writes the ranges of the workspace packages as npm needs them; the packages are built
 * already), and every third-party package they need, from the workspace's node_modules. Returns
 * each tarball with its manifest: `{ name, version, manifest, tarball, ours }`.
 */
export function packWorkspace(root, folder) {
  const packed = [];
  const seen = new Set();
  const pending = [];
  for (const { dir } of publishedPackages(root)) {
    const before = new Set(readdirSync(folder));
    execFileSync('pnpm', ['pack', '--ignore-scripts', '--pack-destination', folder], {
      cwd: dir,
      stdio: 'ignore',
    });
    const file = readdirSync(folder).find((name) => !before.has(name));
    const tarball = join(folder, file);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    );
    packed.push({ name: manifest.name, version: manifest.version, manifest, tarball, ours: true });
    seen.add(`${manifest.name}@${manifest.version}`);
    for (const name of neededNames(manifest)) pending.push({ from: dir, name });
  }
  const ours = new Set(packed.map(({ name }) => name));
  const third = join(folder, 'third-party');
  mkdirSync(third, { recursive: true });
  while (pending.length > 0) {
    const { from, name } = pending.pop();
    if (ours.has(name)) continue;
    const dir = findPackage(from, name);
    if (dir === undefined) throw new Error(`${name}, needed by ${from}, is not installed.`);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const key = `${manifest.name}@${manifest.version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const tarball = join(third, `${key.replace('/', '+')}.tgz`);
    tarFolder(dir, tarball);
    packed.push({ name: manifest.name, version: manifest.version, manifest, tarball, ours: false });
    for (const needed of neededNames(manifest)) pending.push({ from: dir, name: needed });
  }
  return packed;
}

/**
 * Serves `packed` as an npm registry on 127.0.0.1: each name's packument, and the tarballs.
 * Resolves to `{ url, close() }`.
 */
export function serveRegistry(packed) {
  const byName = new Map();
  const files = new Map();
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://registry').pathname.slice(1));
    const file = files.get(path);
    if (file !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(readFileSync(file));
      return;
    }
    const versions = byName.get(path);
    if (versions === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
      return;
    }
    const latest = [...versions.keys()].at(-1);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        name: path,
        'dist-tags': { latest },
        versions: Object.fromEntries(versions),
      }),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}/`;
      for (const { name, version, manifest, tarball } of packed) {
        const file = `${name}/-/${name.split('/').at(-1)}-${version}.tgz`;
        files.set(file, tarball);
        const bytes = readFileSync(tarball);
        const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
        if (!byName.has(name)) byName.set(name, new Map());
        byName
          .get(name)
          .set(version, { ...manifest, dist: { tarball: `${url}${file}`, integrity } });
      }
      resolve({ url, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

/** The npm flags that install from `url` only, with a cache of its own in `cache`. */
export function registryFlags(url, cache) {
  return [
    `--registry=${url}`,
    `--cache=${cache}`,
    '--no-audit',
    '--no-fund',
    '--no-update-notifier',
  ];
}

async function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const folder = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'dsh-tarballs-'));
  mkdirSync(folder, { recursive: true });
  const packed = packWorkspace(root, folder);
  const registry = await serveRegistry(packed);
  for (const { tarball, ours } of packed) if (ours) console.log(tarball);
  console.log(
    `\nServing them and what they need at ${registry.url} (Ctrl+C ends it). In your project:\n` +
      `  npm install --registry=${registry.url} dsh-stdio-agent dsh-acp\n`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
