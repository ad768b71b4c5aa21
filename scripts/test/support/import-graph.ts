import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';

// What importing a built module loads, read from the build itself: every static `import` and
// `export … from` (not `import()`, which loads later, when first needed), followed through this
// repository's own packages (`dsh-*`, resolved as Node resolves them: to their dist/) and
// stopped at anyone else's package, which is recorded by name.

const IMPORTS =
  /(?:^|[;\n])\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g;

/**
 * The built module a specifier of ours names, as a user's Node finds it: the `default` of its
 * package's `exports` (the tests run with the `dsh-source` condition, which would give sources).
 */
function builtModule(from: string, specifier: string): string {
  const name = packageOf(specifier);
  const manifest = createRequire(from).resolve(`${name}/package.json`);
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { default?: string }>;
  };
  const target = exports[`.${specifier.slice(name.length)}`]?.default;
  if (target === undefined) throw new Error(`${specifier} is not exported by ${name}.`);
  return join(dirname(manifest), target);
}

/** What `file` loads at import: `files` (ours, absolute), `specifiers` (every bare one met). */
export interface ImportGraph {
  readonly files: ReadonlySet<string>;
  readonly specifiers: ReadonlySet<string>;
}

/** The import graph of the built module `file`. */
export function importGraph(file: string): ImportGraph {
  const files = new Set<string>();
  const specifiers = new Set<string>();
  const visit = (path: string) => {
    if (files.has(path)) return;
    files.add(path);
    const code = readFileSync(path, 'utf8');
    for (const match of code.matchAll(IMPORTS)) {
      const specifier = (match[1] ?? match[2]) as string;
      if (specifier.startsWith('.')) visit(join(dirname(path), specifier));
      else {
        specifiers.add(specifier);
        if (specifier.startsWith('dsh-')) visit(builtModule(path, specifier));
      }
    }
  };
  visit(file);
  return { files, specifiers };
}

/** The package a bare specifier names: `@scope/name` or `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The packages `file` loads at import, sorted: Node's own (`builtins`), and everyone else's. */
export function packagesLoadedAtImport(file: string): { builtins: string[]; packages: string[] } {
  const { specifiers } = importGraph(file);
  const all = [...specifiers];
  const builtins = all.filter((specifier) => isBuiltin(specifier));
  return {
    builtins: [...new Set(builtins.map((name) => name.replace(/^node:/, '')))].sort(),
    packages: [...new Set(all.filter((s) => !isBuiltin(s)).map(packageOf))].sort(),
  };
}
