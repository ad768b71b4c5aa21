// `search` and `list_files` of dsh-tools over a tree of 50,000 files, against `grep -r` and
// `find` on the same tree in the same run (goal: within 2x). The tree is made in a temporary
// folder and removed after: 500 folders of 100 small source files, a .gitignore at the root and
// one nested, and a few matches spread through it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentTool, ToolContext } from 'dsh-agent';
import { createWorkspaceTools, openWorkspace } from 'dsh-tools';
import { median } from './fixtures/median.js';

const FOLDERS = 500;
const FILES_PER_FOLDER = 100;
const RUNS = 5;

function buildTree(root: string): void {
  writeFileSync(join(root, '.gitignore'), 'build/\n*.log\n');
  for (let folder = 0; folder < FOLDERS; folder++) {
    const path = join(root, 'src', `module-${folder}`);
    mkdirSync(path, { recursive: true });
    if (folder % 50 === 0) writeFileSync(join(path, '.gitignore'), 'generated-*\n');
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      const marker =
        (folder * FILES_PER_FOLDER + file) % 997 === 0 ? 'const NEEDLE_VALUE = 1;\n' : '';
      writeFileSync(
        join(path, `file-${file}.ts`),
        `// module ${folder}, file ${file}\nimport { helper } from './helper.js';\n${marker}export function f${file}(value: number): number {\n  return helper(value) + ${file};\n}\n`,
      );
    }
  }
}

async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function call(tool: AgentTool, args: unknown): Promise<string> {
  const signal = new AbortController().signal;
  const description = await tool.describe?.(args, { signal, toolCallId: 'bench' });
  const result = await tool.execute(args, {
    description,
    signal,
    toolCallId: 'bench',
  } as unknown as ToolContext);
  return result.output;
}

export async function run(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'dsh-bench-tools-'));
  try {
    buildTree(root);
    const workspace = await openWorkspace(root);
    const tools = new Map(createWorkspaceTools({ workspace }).map((tool) => [tool.name, tool]));
    const search = tools.get('search') as AgentTool;
    const listFiles = tools.get('list_files') as AgentTool;
    const files = FOLDERS * FILES_PER_FOLDER;
    console.log(`tree: ${files} files in ${FOLDERS} folders; median of ${RUNS} runs each`);

    // Warm the page cache once, for both sides alike.
    execFileSync('grep', ['-r', '-n', 'NEEDLE_VALUE', root], { maxBuffer: 1 << 26 });

    const grep = await timed(() =>
      execFileSync('grep', ['-r', '-n', '--exclude-dir=.git', 'NEEDLE_VALUE', root], {
        maxBuffer: 1 << 26,
      }),
    );
    const searched = await timed(() => call(search, { pattern: 'NEEDLE_VALUE' }));
    const matches = (await call(search, { pattern: 'NEEDLE_VALUE' })).split('\n').length;
    const regexGrep = await timed(() =>
      execFileSync(
        'grep',
        ['-r', '-n', '-E', '--exclude-dir=.git', 'return helper\\(value\\) \\+ 9[0-9];', root],
        {
          maxBuffer: 1 << 26,
        },
      ),
    );
    const regexSearch = await timed(() =>
      call(search, { pattern: 'return helper\\(value\\) \\+ 9[0-9];' }),
    );
    const find = await timed(() =>
      execFileSync('find', [root, '-name', '.git', '-prune', '-o', '-type', 'f', '-print'], {
        maxBuffer: 1 << 26,
      }),
    );
    const listed = await timed(() => call(listFiles, {}));
    const findGlob = await timed(() =>
      execFileSync('find', [root, '-type', 'f', '-path', '*/module-4*/file-1*.ts'], {
        maxBuffer: 1 << 26,
      }),
    );
    const listedGlob = await timed(() => call(listFiles, { pattern: 'src/module-4*/file-1*.ts' }));

    const row = (label: string, ours: number, theirs: number, baseline: string) =>
      console.log(
        `${label.padEnd(44)} ${ours.toFixed(0).padStart(6)} ms   ${baseline.padEnd(10)} ${theirs.toFixed(0).padStart(6)} ms   ratio ${(ours / theirs).toFixed(2)}x`,
      );
    row(`search literal (${matches} matches, cap 200)`, searched, grep, 'grep -r');
    row('search regular expression (cap 200)', regexSearch, regexGrep, 'grep -rE');
    row('list_files, everything (cap 1,000)', listed, find, 'find');
    row('list_files, a glob', listedGlob, findGlob, 'find -path');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
