// What a person installs and loads with each published package: the size of `node_modules` after
// `npm install <package>` in a fresh npm project, and the time `await import('<package>')` takes
// in a fresh Node process there (the median of several). The packages are packed from this
// clone and served with what they need from a registry on loopback (scripts/local-registry.mjs):
// nothing is downloaded. Given another checkout, built, with node_modules (`before`), its figures
// are printed beside: `tsx bench/install-size.ts /path/to/before`. Not a `*.bench.ts`: it runs
// npm a dozen times (a minute or two), and it measures sizes more than timings.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packWorkspace, registryFlags, serveRegistry } from '../scripts/local-registry.mjs';

const run = promisify(execFile);
const IMPORTS = 7;

interface Figures {
  readonly packages: number;
  readonly bytes: number;
  readonly importMs: number;
}

async function measure(root: string, folder: string): Promise<Map<string, Figures>> {
  mkdirSync(join(folder, 'tarballs'), { recursive: true });
  const packed = packWorkspace(root, join(folder, 'tarballs'));
  const registry = await serveRegistry(packed);
  const figures = new Map<string, Figures>();
  try {
    for (const { name } of packed.filter((entry) => entry.ours)) {
      const dir = join(folder, name);
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'package.json'),
        '{ "name": "app", "private": true, "type": "module" }',
      );
      await run('npm', ['install', ...registryFlags(registry.url, join(folder, 'cache')), name], {
        cwd: dir,
      });
      const { stdout: du } = await run('du', ['-sb', join(dir, 'node_modules')]);
      const { stdout: listed } = await run('npm', ['ls', '--all', '--parseable'], { cwd: dir });
      const times: number[] = [];
      for (let index = 0; index < IMPORTS; index++) {
        const probe = `const t = performance.now(); await import(${JSON.stringify(name)}); console.log(performance.now() - t);`;
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', probe], {
          cwd: dir,
        });
        times.push(Number(stdout));
      }
      times.sort((a, b) => a - b);
      figures.set(name, {
        packages: listed.trim().split('\n').length - 1,
        bytes: Number(du.split('\t')[0]),
        importMs: times[Math.floor(times.length / 2)] as number,
      });
    }
  } finally {
    await registry.close();
  }
  return figures;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

const folder = mkdtempSync(join(tmpdir(), 'dsh-install-size-'));
try {
  const after = await measure(fileURLToPath(new URL('..', import.meta.url)), join(folder, 'after'));
  const beforeRoot = process.argv[2];
  const before =
    beforeRoot === undefined ? undefined : await measure(beforeRoot, join(folder, 'before'));
  console.log(
    '| Package | Installed (packages) | Import of the root |' +
      (before ? ' Before: installed | Before: import |' : ''),
  );
  console.log(`| --- | --- | --- |${before ? ' --- | --- |' : ''}`);
  for (const [name, figures] of after) {
    const old = before?.get(name);
    const columns = [
      name,
      `${megabytes(figures.bytes)} (${figures.packages})`,
      `${figures.importMs.toFixed(1)} ms`,
      ...(old === undefined
        ? []
        : [`${megabytes(old.bytes)} (${old.packages})`, `${old.importMs.toFixed(1)} ms`]),
    ];
    console.log(`| ${columns.join(' | ')} |`);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
