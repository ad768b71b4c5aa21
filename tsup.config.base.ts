import { defineConfig, type Options } from 'tsup';

/**
 * The build of every package: ESM from these entries, with source maps and the type declarations
 * of `typed` (the entries a program imports; a bin needs none).
 */
export function packageBuild(entry: string[], typed: string[] = entry): Options {
  return defineConfig({
    entry,
    format: ['esm'],
    // Declarations are built against the declarations of the workspace packages they import,
    // which are built first, not against their sources: a third of the time, the same output.
    dts: { entry: typed, compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: true,
  }) as Options;
}
