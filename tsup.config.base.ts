import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/**
 * The build of every package: ESM from these entries, with source maps and the type declarations
 * of `typed` (the entries a program imports; a bin needs none).
 */
export function packageBuild(entry: string[], typed: string[] = entry): Options {
  // A module may import its own package by name (a subpath of it, as a user would): that import
  // stays an import, so that a subpath is one chunk shared by everything that loads it.
  const { name } = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string };
  return defineConfig({
    entry,
    format: ['esm'],
    external: [name, new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`)],
    // Declarations are built against the declarations of the workspace packages they import,
    // which are built first, not against their sources: a third of the time, the same output.
    // A module importing its own package by name is typed from the sources (those declarations
    // are the ones being built).
    dts: {
      entry: typed,
      compilerOptions: {
        customConditions: [],
        paths: { [name]: ['./src/index.ts'], [`${name}/*`]: ['./src/*.ts'] },
      },
    },
    sourcemap: true,
    clean: true,
  }) as Options;
}
