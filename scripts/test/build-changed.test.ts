import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildForTests } from './support/build-before-tests.ts';

// `pnpm test` builds only what changed: scripts/build-changed.mjs, run on a workspace of its
// own whose build scripts only note that they ran.

const SCRIPT = fileURLToPath(new URL('../build-changed.mjs', import.meta.url));
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const PAST = 1_700_000_000;

function write(root: string, path: string, text: string): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, PAST, PAST);
}

/** `base`, and `app` that depends on it; each build writes its dist/ and notes its name. */
function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'dsh-build-changed-'));
  roots.push(root);
  write(root, 'pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
  write(root, 'package.json', JSON.stringify({ name: 'root', private: true }));
  // Copies of the scripts, so that the workspace they read is this one.
  for (const name of ['build-changed.mjs', 'build-plan.mjs', 'start-command.mjs']) {
    write(root, `scripts/${name}`, readFileSync(join(dirname(SCRIPT), name), 'utf8'));
  }
  const build =
    "node -e \"const f=require('fs');f.mkdirSync('dist',{recursive:true});f.writeFileSync('dist/index.js','');f.appendFileSync('../../built.txt',process.env.npm_package_name+'\\n')\"";
  const manifest = (name: string, dependencies: Record<string, string>) =>
    JSON.stringify({
      name,
      scripts: { build },
      exports: { '.': './dist/index.js' },
      dependencies,
    });
  write(root, 'packages/base/package.json', manifest('base', {}));
  write(root, 'packages/app/package.json', manifest('app', { base: 'workspace:^' }));
  write(root, 'packages/base/src/index.ts', 'export {};');
  write(root, 'packages/app/src/index.ts', 'export {};');
  return root;
}

function run(root: string): { status: number | null; stderr: string; built: string[] } {
  const result = spawnSync(process.execPath, [join(root, 'scripts/build-changed.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  let built: string[] = [];
  try {
    built = readFileSync(join(root, 'built.txt'), 'utf8').split('\n').filter(Boolean);
  } catch {}
  rmSync(join(root, 'built.txt'), { force: true });
  return { status: result.status, stderr: result.stderr, built };
}

describe('build-changed', () => {
  it('builds every package never built, each after those it depends on, then nothing', () => {
    const root = workspace();
    const first = run(root);
    expect(first.status).toBe(0);
    expect(first.built).toEqual(['base', 'app']);
    expect(first.stderr).toContain('Building base (never built), app (never built)');
    const second = run(root);
    expect(second).toEqual({ status: 0, stderr: '', built: [] });
  });

  it('rebuilds a changed package and those that depend on it, not the others', () => {
    const root = workspace();
    expect(run(root).built).toEqual(['base', 'app']);
    writeFileSync(join(root, 'packages/app/src/index.ts'), 'export const changed = 1;');
    expect(run(root).built).toEqual(['app']);
    writeFileSync(join(root, 'packages/base/src/index.ts'), 'export const changed = 1;');
    const again = run(root);
    expect(again.built).toEqual(['base', 'app']);
    expect(again.stderr).toContain('app (base is rebuilt)');
  });

  it('fails when a build fails, and says so', () => {
    const root = workspace();
    write(
      root,
      'packages/base/package.json',
      JSON.stringify({
        name: 'base',
        scripts: { build: 'exit 3' },
        exports: { '.': './dist/index.js' },
      }),
    );
    const result = run(root);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('The build failed.');
  });

  it('runs before the tests too (Vitest global setup): a test that reads dist/ finds it built', () => {
    const root = workspace();
    expect(buildForTests(root)).toBe(0);
    expect(readFileSync(join(root, 'built.txt'), 'utf8').split('\n').filter(Boolean)).toEqual([
      'base',
      'app',
    ]);
    // Nothing stale: nothing built again.
    expect(buildForTests(root)).toBe(0);
    expect(readFileSync(join(root, 'built.txt'), 'utf8').split('\n').filter(Boolean)).toHaveLength(
      2,
    );
    const config = readFileSync(new URL('../../vitest.config.ts', import.meta.url), 'utf8');
    expect(config).toContain("'scripts/test/support/build-before-tests.ts'");
  });
});
