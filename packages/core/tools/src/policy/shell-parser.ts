import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Parser, Node as SyntaxNode } from 'web-tree-sitter';

export type { SyntaxNode };

let loading: Promise<Parser> | undefined;

/**
 * The Bash parser (tree-sitter-bash, the grammar Claude Code checks commands with, run as
 * WebAssembly: nothing native, nothing downloaded). Loaded on the first command checked, so a
 * program that never runs a command never pays for it (about 40 ms and a few MiB).
 */
export function bashParser(): Promise<Parser> {
  loading ??= (async () => {
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const require = createRequire(import.meta.url);
    const grammar = join(
      dirname(require.resolve('tree-sitter-bash/package.json')),
      'tree-sitter-bash.wasm',
    );
    const parser = new Parser();
    parser.setLanguage(await Language.load(grammar));
    return parser;
  })();
  // A failed load is tried again at the next command rather than remembered.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
