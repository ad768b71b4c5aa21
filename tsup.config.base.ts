import { defineConfig, type Options } from 'tsup';

/**
 * The build of every package: ESM from these entries, with source maps and the type declarations
 * of `typed` (the entries a program imports; a bin needs none).
 */
export function packageBuild(entry: string[], typed: string[] = entry): Options {
  return defineConfig({
    entry,
    format: ['esm'],
    dts: { entry: typed },
    sourcemap: true,
    clean: true,
  }) as Options;
}
