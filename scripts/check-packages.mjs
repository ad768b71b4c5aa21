// Packs every published package as `pnpm publish` would (its `prepack` builds it first), then
// checks each tarball: what its package.json points at is in it, no workspace-only condition or
// range is left, and publint and Are the Types Wrong find nothing. Offline: the tarballs are read
// from a temporary folder, and no type package is looked up. Exits 1 when any package has a
// problem, after reporting every one. With `--write-publish-exports`, it only writes each
// package's `publishConfig.exports` (its `exports` without the source condition) and exits.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspacePackages } from './build-plan.mjs';

/** The export condition that points the workspace at sources; a tarball has none. */
export const SOURCE_CONDITION = 'dsh-source';

/**
 * `exports` with every source condition taken out: what a tarball's package.json has. pnpm
 * packs a package with its `publishConfig.exports` in place of `exports`
 * (https://pnpm.io/package_json#publishconfig), and each package's is this, which
 * scripts/test/check-packages.test.ts holds. A pack-time hook in `.pnpmfile.mjs` did the same
 * without a copy, but pnpm 12 starts Node to load that file before every command, `pnpm start`
 * included (about 100 ms, bench/pnpm-start.bench.ts).
 */
export function withoutSourceCondition(exports) {
  if (exports === null || typeof exports !== 'object') return exports;
  if (Array.isArray(exports)) return exports.map(withoutSourceCondition);
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

/** Writes each published package's `publishConfig.exports`, placed after `exports`. */
function writePublishExports(root) {
  for (const { name, dir, manifest } of publishedPackages(root)) {
    const publishConfig = {
      ...manifest.publishConfig,
      exports: withoutSourceCondition(manifest.exports),
    };
    const entries = Object.entries(manifest).filter(([key]) => key !== 'publishConfig');
    const at = entries.findIndex(([key]) => key === 'exports') + 1;
    entries.splice(at, 0, ['publishConfig', publishConfig]);
    const file = join(dir, 'package.json');
    const text = `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
    if (text === readFileSync(file, 'utf8')) continue;
    writeFileSync(file, text);
    console.log(`${name}: publishConfig.exports written`);
  }
}

/** Every `[condition path, target]` of an `exports` map, conditions nested in any depth. */
export function exportTargets(exports, path = []) {
  if (typeof exports === 'string') return [[path, exports]];
  if (exports === null || typeof exports !== 'object') return [];
  if (Array.isArray(exports)) return exports.flatMap((entry) => exportTargets(entry, path));
  return Object.entries(exports).flatMap(([key, value]) => exportTargets(value, [...path, key]));
}

/** The file a relative target names, inside the package: `./dist/a.js` is `dist/a.js`. */
function inPackage(target) {
  return target.replace(/^\.\//, '');
}

/** Whether `files` (paths inside the package) hold what `target` names, patterns included. */
function present(target, files) {
  const path = inPackage(target);
  if (!path.includes('*')) return files.has(path);
  const [before, after] = path.split('*');
  return [...files].some((file) => file.startsWith(before) && file.endsWith(after));
}

/**
 * What is wrong with a packed manifest, given the files of its tarball (paths inside the
 * package, `package/` taken off): each problem is one sentence.
 */
export function packedProblems(manifest, files) {
  const problems = [];
  for (const [conditions, target] of exportTargets(manifest.exports)) {
    const where = conditions.join(' > ') || '.';
    if (conditions.includes(SOURCE_CONDITION))
      problems.push(`exports ${where} keeps the workspace-only "${SOURCE_CONDITION}" condition`);
    else if (!present(target, files))
      problems.push(`exports ${where} points at ${target}, which the tarball lacks`);
  }
  const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin;
  for (const [name, target] of Object.entries(bins ?? {})) {
    if (!files.has(inPackage(target)))
      problems.push(`bin ${name} points at ${target}, which the tarball lacks`);
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:'))
        problems.push(`${field} ${name} is still "${range}"`);
    }
  }
  for (const file of ['README.md', 'LICENSE']) {
    if (!files.has(file)) problems.push(`the tarball has no ${file}`);
  }
  // A document the README links to beside it (terminal-agent.md) ships with it.
  const readme = manifest.readmeText ?? '';
  for (const [, link] of readme.matchAll(/\]\(([\w.-]+\.md)(#[^)]*)?\)/g)) {
    if (!files.has(link)) problems.push(`README.md links to ${link}, which the tarball lacks`);
  }
  return problems;
}

/** The packages `pnpm publish -r` would publish: every workspace package that is not private. */
export function publishedPackages(root) {
  return [...workspacePackages(root).values()].filter(({ manifest }) => manifest.private !== true);
}

function tarballFiles(tarball) {
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  return new Set(
    listing
      .split('\n')
      .filter((line) => line !== '' && !line.endsWith('/'))
      .map((line) => line.replace(/^package\//, '')),
  );
}

function tarballText(tarball, file) {
  return execFileSync('tar', ['-xOzf', tarball, `package/${file}`], { encoding: 'utf8' });
}

/** Runs a checker; its output is shown only when it fails. */
function passes(command, args, cwd) {
  try {
    execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `${error.stdout ?? ''}${error.stderr ?? ''}`.trim() || String(error);
  }
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const bin = (name) => join(root, 'node_modules/.bin', name);
  const folder = mkdtempSync(join(tmpdir(), 'dsh-packed-'));
  let failed = 0;
  try {
    for (const { name, dir } of publishedPackages(root)) {
      const before = new Set(readdirSync(folder));
      execFileSync('pnpm', ['pack', '--pack-destination', folder], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const tarball = join(
        folder,
        readdirSync(folder).find((file) => !before.has(file)),
      );
      const files = tarballFiles(tarball);
      const manifest = JSON.parse(tarballText(tarball, 'package.json'));
      manifest.readmeText = files.has('README.md') ? tarballText(tarball, 'README.md') : '';
      const problems = packedProblems(manifest, files);
      const publint = passes(bin('publint'), ['run', tarball, '--strict'], folder);
      if (publint !== undefined) problems.push(`publint:\n${publint}`);
      // ESM only, as every package is; no @types package is looked up (that would need the registry).
      const attw = passes(
        bin('attw'),
        [tarball, '--profile', 'esm-only', '--no-definitely-typed', '--no-emoji', '--no-color'],
        folder,
      );
      if (attw !== undefined) problems.push(`Are the Types Wrong:\n${attw}`);
      if (problems.length === 0) {
        console.log(`${name}: packed, ${files.size} files, publint and attw pass`);
        continue;
      }
      failed++;
      console.log(`${name}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (failed > 0) {
    console.log(`${failed} package(s) are not ready to publish.`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--write-publish-exports')
    writePublishExports(fileURLToPath(new URL('..', import.meta.url)));
  else main();
}
