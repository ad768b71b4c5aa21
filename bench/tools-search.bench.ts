// `search` and `list_files` over a 50,000-file tree, against `grep -r` and `find` on the same
// tree in the same run (interleaved, medians). The tree is made in a temporary folder and removed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentTool } from 'dsh-agent';
import { approvedCall } from 'dsh-agent/testing';
import { createWorkspaceTools, openWorkspace } from 'dsh-tools';
import { median } from './fixtures/median.js';

const FILES = 50_000;
const PER_FOLDER = 100;
const ROUNDS = 5;

async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function call(tool: AgentTool, args: unknown): Promise<string> {
  return (await approvedCall(tool, args, { toolCallId: 'b' })).output;
}

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-bench-tree-'));
  try {
    for (let index = 0; index < FILES; index++) {
      const sub = join(folder, `d${Math.floor(index / PER_FOLDER)}`);
      if (index % PER_FOLDER === 0) mkdirSync(sub);
      const body = `export const value${index} = ${index};\n// plain line ${index}\n${index % 997 === 0 ? 'const needle = true;\n' : ''}`;
      writeFileSync(join(sub, `f${index}.ts`), body);
    }
    const workspace = await openWorkspace(folder);
    const tools = new Map(createWorkspaceTools({ workspace }).map((tool) => [tool.name, tool]));
    const search = tools.get('search') as AgentTool;
    const list = tools.get('list_files') as AgentTool;
    const times = {
      search: [] as number[],
      grep: [] as number[],
      list: [] as number[],
      find: [] as number[],
    };
    let found = '';
    for (let round = 0; round < ROUNDS; round++) {
      times.search.push(
        await timed(async () => {
          found = await call(search, { pattern: 'needle' });
        }),
      );
      times.grep.push(
        await timed(() =>
          execFileSync('grep', ['-rn', 'needle', '.'], { cwd: folder, maxBuffer: 1 << 26 }),
        ),
      );
      times.list.push(await timed(() => call(list, { pattern: '**/*.ts' })));
      times.find.push(
        await timed(() =>
          execFileSync('find', ['.', '-type', 'f', '-name', '*.ts'], {
            cwd: folder,
            maxBuffer: 1 << 26,
          }),
        ),
      );
    }
    const [s, g, l, f] = [
      median(times.search),
      median(times.grep),
      median(times.list),
      median(times.find),
    ];
    console.log(
      `tree: ${FILES} files in ${FILES / PER_FOLDER} folders; search found ${found.split('\n').length} lines`,
    );
    console.log(
      `search: ${s.toFixed(0)} ms, grep -rn: ${g.toFixed(0)} ms (ratio ${(s / g).toFixed(2)}x; goal within 2x)`,
    );
    console.log(
      `list_files: ${l.toFixed(0)} ms, find: ${f.toFixed(0)} ms (ratio ${(l / f).toFixed(2)}x; goal within 2x)`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
