import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  exportTargets,
  packedProblems,
  publishedPackages,
  SOURCE_CONDITION,
  withoutSourceCondition,
} from '../check-packages.mjs';

// What `node scripts/check-packages.mjs` (run by CI on the real tarballs) finds wrong in a packed
// package, and the workspace's side of it: the packed exports, the prepack, the release workflow.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const GOOD = {
  name: 'dsh-example',
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './package.json': './package.json',
  },
  bin: { 'dsh-example': './dist/bin.js' },
  dependencies: { 'dsh-agent': '^0.1.0' },
  readmeText: 'See [the other document](other.md#usage) and [a folder](../agent).',
};
const FILES = new Set([
  'package.json',
  'README.md',
  'LICENSE',
  'other.md',
  'dist/index.d.ts',
  'dist/index.js',
  'dist/bin.js',
]);

describe('a packed package', () => {
  it('passes when everything it names is in the tarball', () => {
    expect(packedProblems(GOOD, FILES)).toEqual([]);
  });

  it('fails on a workspace-only condition, a missing target, a missing bin and a workspace range', () => {
    const manifest = {
      ...GOOD,
      exports: {
        '.': {
          [SOURCE_CONDITION]: './src/index.ts',
          types: './dist/index.d.ts',
          default: './dist/main.js',
        },
      },
      bin: './dist/cli.js',
      dependencies: { 'dsh-agent': 'workspace:^' },
    };
    expect(packedProblems(manifest, FILES)).toEqual([
      'exports . > dsh-source keeps the workspace-only "dsh-source" condition',
      'exports . > default points at ./dist/main.js, which the tarball lacks',
      'bin dsh-example points at ./dist/cli.js, which the tarball lacks',
      'dependencies dsh-agent is still "workspace:^"',
    ]);
  });

  it('fails when a document its README links to, or the README itself, is left out', () => {
    const files = new Set([...FILES].filter((file) => file !== 'other.md' && file !== 'LICENSE'));
    expect(packedProblems(GOOD, files)).toEqual([
      'the tarball has no LICENSE',
      'README.md links to other.md, which the tarball lacks',
    ]);
  });

  it('reads targets nested in conditions and arrays, patterns included', () => {
    expect(exportTargets({ './x/*': [{ import: { types: './t/*.d.ts' } }, './d/*.js'] })).toEqual([
      [['./x/*', 'import', 'types'], './t/*.d.ts'],
      [['./x/*'], './d/*.js'],
    ]);
    const files = new Set([...FILES, 'd/a.js']);
    expect(packedProblems({ ...GOOD, exports: { './x/*': './d/*.js' } }, files)).toEqual([]);
    expect(packedProblems({ ...GOOD, exports: { './x/*': './e/*.js' } }, files)).toEqual([
      'exports ./x/* points at ./e/*.js, which the tarball lacks',
    ]);
  });
});

describe('the workspace packages', () => {
  const packages = publishedPackages(ROOT);

  it('are the six published ones', () => {
    expect(packages.map(({ name }) => name).sort()).toEqual([
      'dsh-acp',
      'dsh-agent',
      'dsh-mcp',
      'dsh-stdio-agent',
      'dsh-tools',
      'dsh-user-interaction',
    ]);
  });

  it.each(packages.map(({ name, manifest }) => [name, manifest] as const))(
    '%s builds before it is packed, and packs without the source condition',
    (_name, manifest) => {
      expect(manifest.scripts.prepack).toBe('pnpm run build');
      // pnpm packs publishConfig.exports in place of exports: the same map, derived from it
      // (`node scripts/check-packages.mjs --write-publish-exports` writes it).
      expect(manifest.publishConfig?.exports).toEqual(withoutSourceCondition(manifest.exports));
      const targets = exportTargets(manifest.publishConfig.exports);
      expect(targets.length).toBeGreaterThan(0);
      expect(targets.filter(([conditions]) => conditions.includes(SOURCE_CONDITION))).toEqual([]);
      // Only the source condition goes: every other target stays as the workspace has it.
      const kept = exportTargets(manifest.exports).filter(
        ([conditions]) => !conditions.includes(SOURCE_CONDITION),
      );
      expect(targets).toEqual(kept);
      expect(exportTargets(manifest.exports).length).toBeGreaterThan(kept.length);
    },
  );

  it('give dsh-acp, which has a bin, zod as its own dependency rather than a peer', () => {
    const acp = packages.find(({ name }) => name === 'dsh-acp');
    expect(acp?.manifest.bin).toBeDefined();
    expect(acp?.manifest.dependencies.zod).toBeDefined();
    expect(acp?.manifest.peerDependencies?.zod).toBeUndefined();
  });
});

describe('the release workflow', () => {
  const workflow = readFileSync(`${ROOT}.github/workflows/release.yml`, 'utf8');

  it('versions and publishes with changesets, with npm provenance', () => {
    expect(workflow).toMatch(/^\s+version: pnpm changeset version$/m);
    expect(workflow).toMatch(/^\s+publish: pnpm changeset publish$/m);
    expect(workflow).toMatch(/^\s+id-token: write\b/m);
    expect(workflow).toMatch(/^\s+NPM_CONFIG_PROVENANCE: true$/m);
  });

  it('runs CI, the packed-tarball checks included, before it publishes', () => {
    const ci = readFileSync(`${ROOT}.ci/run`, 'utf8');
    expect(ci).toMatch(/^node scripts\/check-packages\.mjs \|\| status=1$/m);
    expect(ci).toMatch(/^pnpm changeset status \|\| status=1$/m);
    expect(workflow.indexOf('run: bash .ci/run')).toBeGreaterThan(-1);
    expect(workflow.indexOf('run: bash .ci/run')).toBeLessThan(
      workflow.indexOf('changesets/action'),
    );
  });
});
