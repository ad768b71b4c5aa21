import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Options } from 'tsup';
import { packageBuild } from '../../../tsup.config.base.js';

// The Bash grammar ships as its one file, `dist/tree-sitter-bash.wasm` (1.4 MB), with its MIT
// license beside it: the `tree-sitter-bash` package (a devDependency) is 20 MB of native
// prebuilds and sources, and its install script, which the parser never needs, makes npm warn.
const grammar = dirname(createRequire(import.meta.url).resolve('tree-sitter-bash/package.json'));

const config: Options = {
  ...packageBuild(['src/index.ts', 'src/command-line.ts']),
  onSuccess: async () => {
    copyFileSync(join(grammar, 'tree-sitter-bash.wasm'), 'dist/tree-sitter-bash.wasm');
    copyFileSync(join(grammar, 'LICENSE'), 'dist/tree-sitter-bash.LICENSE');
  },
};

export default config;
