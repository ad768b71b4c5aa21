import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  importGraph,
  packagesLoadedAtImport,
} from '../../../../scripts/test/support/import-graph.js';

// Reads dist/: the tests' global setup builds it first.
const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

describe('what importing dsh-tools loads', () => {
  it('the root loads the contract and nothing else of anyone: no agent loop, no model client', () => {
    // The Bash parser, the glob matcher and the diff are loaded when first used.
    expect(packagesLoadedAtImport(dist('index.js')).packages).toEqual(['dsh-user-interaction']);
  });

  it('dsh-tools/command-line loads the command line of dsh-agent (its optional peer), not its loop', () => {
    const { specifiers } = importGraph(dist('command-line.js'));
    expect([...specifiers].filter((name) => name.startsWith('dsh-agent'))).toEqual([
      'dsh-agent/command-line',
    ]);
  });
});

describe('what importing dsh-tools compiles', () => {
  it('leaves out the command reader (the Bash rules), loaded with the first command to decide', () => {
    for (const entry of ['index.js', 'command-line.js']) {
      const code = [...importGraph(dist(entry)).files]
        .map((file) => readFileSync(file, 'utf8'))
        .join('\n');
      // Not its functions: a program's start, up to its first question, never reads a command.
      for (const name of ['readPlainScript', 'unwrap', 'programRecord', 'commandPrefix']) {
        expect(code).not.toMatch(new RegExp(`function ${name}\\(`));
      }
      // One import() away.
      expect(code).toMatch(/import\("\.\/analyse-command-[\w-]+\.js"\)/);
    }
  });
});
