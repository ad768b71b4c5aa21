import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** The CommonJS modules a fresh Node has loaded after running `code` (an ES module). */
function commonJsLoadedAfter(code: string): string[] {
  const script = `${code}
import { createRequire } from 'node:module';
console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(output) as string[];
}

describe('the CommonJS dependency', () => {
  it("is not loaded by importing dsh-tools, only once a rule's glob is compiled", () => {
    const atImport = commonJsLoadedAfter(`import ${JSON.stringify(built)};`);
    expect(atImport.filter((path) => /picomatch/.test(path))).toEqual([]);

    const afterUse = commonJsLoadedAfter(`
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkspaceTools, openWorkspace, parseRule } from ${JSON.stringify(built)};
if (!parseRule('write_file:src/**').matchesPath('src/a.ts')) throw new Error('no match');
const folder = mkdtempSync(join(tmpdir(), 'dsh-cjs-'));
try {
  writeFileSync(join(folder, '.gitignore'), 'dist\\n');
  const list = createWorkspaceTools({ workspace: await openWorkspace(folder) }).find((tool) => tool.name === 'list_files');
  const description = await list.describe({});
  const listed = await list.execute({}, { signal: new AbortController().signal, description });
  if (!listed.ok) throw new Error(listed.output);
} finally {
  rmSync(folder, { recursive: true, force: true });
}`);
    expect(afterUse.some((path) => path.includes('picomatch'))).toBe(true);
  });
});
