import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Parser, Node as SyntaxNode, Tree } from 'web-tree-sitter';

export type { SyntaxNode, Tree };

let loading: Promise<Parser> | undefined;

/**
 * The Bash grammar: the build puts `tree-sitter-bash.wasm` beside the built modules (see
 * tsup.config.ts), so that the package needs no `tree-sitter-bash` installed. Where the sources
 * run (this repository's tests), it is the devDependency's own file.
 */
function grammarFile(): string {
  const built = fileURLToPath(new URL('./tree-sitter-bash.wasm', import.meta.url));
  if (existsSync(built)) return built;
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('tree-sitter-bash/package.json')), 'tree-sitter-bash.wasm');
}

/**
 * The Bash parser (tree-sitter-bash run as WebAssembly: nothing native, nothing downloaded),
 * which the deny rules read a command line that is not plain with. Loaded on the first such
 * command, so a program that never runs one never pays for it (about 40 ms and a few MiB).
 */
function bashParser(): Promise<Parser> {
  loading ??= (async () => {
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const parser = new Parser();
    parser.setLanguage(await Language.load(grammarFile()));
    return parser;
  })();
  // A failed load is tried again at the next command rather than remembered.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * Parses `text`, giving up after `budgetMs` (`null`): the parser's error recovery can take time
 * and memory out of proportion to a hostile text, and a parse cut short leaves the parser ready
 * for the next one.
 */
export async function parseBash(text: string, budgetMs: number): Promise<Tree | null> {
  const parser = await bashParser();
  const deadline = performance.now() + budgetMs;
  let tree: Tree | null = null;
  try {
    tree = parser.parse(text, null, {
      progressCallback: (() => performance.now() > deadline) as () => void,
    });
  } finally {
    if (tree === null) parser.reset();
  }
  return tree;
}
