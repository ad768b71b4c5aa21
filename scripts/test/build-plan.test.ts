import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPlan } from '../build-plan.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Seconds since the epoch: every file gets a time set by the test, none by the clock. */
const BUILT = 1_700_000_000;
const BEFORE = BUILT - 100;
const AFTER = BUILT + 100;

function write(root: string, path: string, text: string, time: number): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, time, time);
}

function touch(root: string, path: string, time: number): void {
  utimesSync(join(root, path), time, time);
}

/**
 * A workspace of three packages, built after their sources were written: `app` depends on
 * `lib`, which depends on `base`; `other` depends on `base` but not the other way round.
 */
function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'dsh-build-plan-'));
  roots.push(root);
  write(root, 'pnpm-workspace.yaml', 'packages:\n  - packages/*\n  - "tools"\n', BEFORE);
  write(root, 'tsconfig.base.json', '{}', BEFORE);
  write(root, 'tsup.config.base.ts', 'export {};', BEFORE);
  const manifest = (name: string, dependencies: Record<string, string>, bin?: string) =>
    JSON.stringify({
      name,
      scripts: { build: 'tsup' },
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      ...(bin !== undefined && { bin: { [name]: bin } }),
      dependencies,
    });
  const packages = {
    base: manifest('base', {}),
    lib: manifest('lib', { base: 'workspace:^', left: '1.0.0' }),
    app: manifest('app', { lib: 'workspace:^' }, './dist/bin.js'),
    other: manifest('other', { base: 'workspace:*' }),
  };
  for (const [name, text] of Object.entries(packages)) {
    const dir = `packages/${name}`;
    write(root, `${dir}/package.json`, text, BEFORE);
    write(root, `${dir}/tsup.config.ts`, 'export default {};', BEFORE);
    write(root, `${dir}/src/index.ts`, 'export {};', BEFORE);
    write(root, `${dir}/src/parts/part.ts`, 'export {};', BEFORE);
    touch(root, `${dir}/src/parts`, BEFORE);
    touch(root, `${dir}/src`, BEFORE);
    write(root, `${dir}/dist/index.js`, '', BUILT);
    write(root, `${dir}/dist/index.d.ts`, '', BUILT);
  }
  write(root, 'packages/app/dist/bin.js', '', BUILT);
  // A package without a build, and a folder without a package.
  write(root, 'tools/package.json', JSON.stringify({ name: 'tools' }), BEFORE);
  mkdirSync(join(root, 'packages/notes'));
  return root;
}

/** What the plan says, as `name: why` for the stale packages. */
function staleOf(root: string, target = 'app'): Record<string, string> {
  return Object.fromEntries(
    buildPlan(root, target)
      .filter((entry) => entry.stale !== undefined)
      .map((entry) => [entry.name, entry.stale as string]),
  );
}

describe('the build plan of pnpm start', () => {
  it('lists the target and what it depends on, dependencies first, and nothing when all is built', () => {
    const root = workspace();
    expect(buildPlan(root, 'app').map((entry) => entry.name)).toEqual(['base', 'lib', 'app']);
    expect(staleOf(root)).toEqual({});
  });

  it('builds a package whose source changed, and every package that depends on it', () => {
    const root = workspace();
    touch(root, 'packages/lib/src/parts/part.ts', AFTER);
    expect(staleOf(root)).toEqual({
      lib: 'packages/lib/src/parts/part.ts changed',
      app: 'lib is rebuilt',
    });
  });

  it('builds a package a source was deleted from', () => {
    const root = workspace();
    unlinkSync(join(root, 'packages/base/src/parts/part.ts'));
    expect(staleOf(root)).toEqual({
      base: 'packages/base/src/parts changed',
      lib: 'base is rebuilt',
      app: 'lib is rebuilt',
    });
  });

  it('builds a package whose config changed: tsup, tsconfig, package.json, the shared configs', () => {
    for (const path of [
      'packages/app/tsup.config.ts',
      'packages/app/package.json',
      'tsconfig.base.json',
      'tsup.config.base.ts',
    ]) {
      const root = workspace();
      touch(root, path, AFTER);
      expect(staleOf(root).app, path).toBe(`${path} changed`);
    }
    const root = workspace();
    write(root, 'packages/app/tsconfig.json', '{}', AFTER);
    expect(staleOf(root)).toEqual({ app: 'packages/app/tsconfig.json changed' });
  });

  it('builds a package whose dependency was built after it, elsewhere', () => {
    const root = workspace();
    touch(root, 'packages/base/dist/index.d.ts', AFTER);
    expect(staleOf(root)).toEqual({ lib: 'base was built after it', app: 'lib is rebuilt' });
  });

  it('builds a package never built, or whose build left out what its manifest promises', () => {
    const root = workspace();
    rmSync(join(root, 'packages/base/dist'), { recursive: true });
    unlinkSync(join(root, 'packages/app/dist/bin.js'));
    expect(staleOf(root)).toEqual({
      base: 'never built',
      lib: 'base is rebuilt',
      app: 'dist/bin.js is missing',
    });
  });

  it('reads every file of dist/ when the manifest promises none there', () => {
    const root = workspace();
    write(
      root,
      'packages/base/package.json',
      JSON.stringify({ name: 'base', scripts: { build: 'tsup' }, main: 'index.js' }),
      BEFORE,
    );
    expect(staleOf(root)).toEqual({});
    touch(root, 'packages/base/dist/index.js', BEFORE - 50);
    expect(staleOf(root)).toEqual({
      base: 'packages/base/package.json changed',
      lib: 'base is rebuilt',
      app: 'lib is rebuilt',
    });
    rmSync(join(root, 'packages/base/dist'), { recursive: true });
    mkdirSync(join(root, 'packages/base/dist'));
    expect(staleOf(root).base).toBe('never built');
  });

  it('leaves out the packages the target does not need', () => {
    const root = workspace();
    touch(root, 'packages/other/src/index.ts', AFTER);
    expect(staleOf(root)).toEqual({});
    expect(staleOf(root, 'other')).toEqual({ other: 'packages/other/src/index.ts changed' });
  });

  it('names a target that is not in the workspace', () => {
    expect(() => buildPlan(workspace(), 'nope')).toThrow('No workspace package is named nope.');
  });
});
