// Packs every published package as `pnpm publish` would (its `prepack` builds it first), then
// checks each tarball: what its package.json points at is in it, no workspace-only condition or
// range is left, and publint and Are the Types Wrong find nothing. Offline: the tarballs are read
// from a temporary folder, and no type package is looked up. Exits 1 when any package has a
// problem, after reporting every one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspacePackages } from './build-plan.mjs';

/** The export condition that points the workspace at sources; a tarball has none. */
export const SOURCE_CONDITION = 'dsh-source';

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

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
