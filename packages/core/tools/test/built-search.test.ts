import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the built package', () => {
  // The search thread runs from the source text of a function: a bundler that renamed what it
  // uses (`require` became `__require`) broke it in the build only.
  it('searches in its worker thread', () => {
    const script = `
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkspaceTools, openWorkspace } from ${JSON.stringify(built)};
const folder = mkdtempSync(join(tmpdir(), 'dsh-built-search-'));
try {
  writeFileSync(join(folder, 'a.txt'), 'one\\nneedle two\\n');
  const search = createWorkspaceTools({ workspace: await openWorkspace(folder) }).find((tool) => tool.name === 'search');
  const args = { pattern: 'needle' };
  const signal = new AbortController().signal;
  const description = await search.describe(args, { signal, toolCallId: 'c' });
  const result = await search.execute(args, { signal, description, toolCallId: 'c' });
  console.log(result.output);
} finally {
  rmSync(folder, { recursive: true, force: true });
}`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(output).toBe('a.txt:2: needle two\n');
  });
});
