// What a hostile model or repository costs the tools that run without asking: a `search`
// pattern that backtracks, a `list_files` glob that would, and a .gitignore of 100,000 lines.
// Each is measured against a plain call over the same tree in the same run, with the longest
// time the event loop waited for a turn meanwhile (what a Ctrl+C or a cancel waits at most).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentTool } from 'dsh-agent';
import { approvedCall } from 'dsh-agent/testing';
import { createWorkspaceTools, openWorkspace } from 'dsh-tools';
import { median } from './fixtures/median.js';

const ROUNDS = 3;
const FOLDERS = 100;
const PER_FOLDER = 50;
const RULES = 100_000;

/** Runs `work`, and gives its time and the longest wait of the event loop for a turn meanwhile. */
async function measured(work: () => Promise<unknown>): Promise<{ ms: number; stall: number }> {
  let stall = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  running = false;
  return { ms, stall };
}

async function medians(work: () => Promise<unknown>) {
  const runs: { ms: number; stall: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await measured(work));
  return {
    ms: median(runs.map((run) => run.ms)),
    stall: Math.max(...runs.map((run) => run.stall)),
  };
}

const shown = (figure: { ms: number; stall: number }) =>
  `${figure.ms.toFixed(0)} ms (longest event loop wait ${figure.stall.toFixed(0)} ms)`;

function tree(folder: string, gitignore?: string): void {
  for (let index = 0; index < FOLDERS; index++) {
    const sub = join(folder, `${'a'.repeat(60)}${index}`);
    mkdirSync(sub);
    for (let file = 0; file < PER_FOLDER; file++)
      writeFileSync(join(sub, `${'a'.repeat(80)}${file}.ts`), `export const a = ${file};\n`);
  }
  writeFileSync(join(folder, 'long-line.txt'), `${'a'.repeat(40)}!\n`);
  if (gitignore !== undefined) writeFileSync(join(folder, '.gitignore'), gitignore);
}

export async function run(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'dsh-bench-hostile-'));
  try {
    const plain = join(root, 'plain');
    const ignoring = join(root, 'ignoring');
    mkdirSync(plain);
    mkdirSync(ignoring);
    tree(plain);
    const rules = Array.from({ length: RULES }, (_, index) =>
      index % 3 === 0
        ? `generated-${index}/`
        : index % 3 === 1
          ? `*.tmp${index}`
          : `/out/${index}/*.js`,
    ).join('\n');
    tree(ignoring, rules);
    const tools = async (folder: string) => {
      const all = createWorkspaceTools({ workspace: await openWorkspace(folder) });
      return (name: string) => all.find((tool) => tool.name === name) as AgentTool;
    };
    const inPlain = await tools(plain);
    const inIgnoring = await tools(ignoring);
    console.log(
      `tree: ${FOLDERS * PER_FOLDER} files with names of 80+ characters in ${FOLDERS} folders`,
    );

    // The thread's own cost: a search of one small file against a listing of it.
    const small = join(root, 'small');
    mkdirSync(small);
    writeFileSync(join(small, 'a.ts'), 'export const a = 1;\n');
    const inSmall = await tools(small);
    const oneSearch = await medians(() => approvedCall(inSmall('search'), { pattern: 'a' }));
    const oneList = await medians(() => approvedCall(inSmall('list_files'), {}));
    console.log(
      `one file: search ${oneSearch.ms.toFixed(1)} ms (its thread started and ended), list_files ${oneList.ms.toFixed(1)} ms`,
    );

    const benign = await medians(() => approvedCall(inPlain('search'), { pattern: '^a+$' }));
    const hostile = await medians(() => approvedCall(inPlain('search'), { pattern: '^(a+)+$' }));
    console.log(`search /^a+$/: ${shown(benign)}`);
    console.log(`search /^(a+)+$/ (stopped at its 5 s limit on long-line.txt): ${shown(hostile)}`);
    const latencies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const controller = new AbortController();
      const call = approvedCall(
        inPlain('search'),
        { pattern: '^(a+)+$' },
        { signal: controller.signal },
      );
      // Cancelled once the search has had time to reach the long line.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const asked = performance.now();
      controller.abort();
      await call;
      latencies.push(performance.now() - asked);
    }
    console.log(
      `search /^(a+)+$/ cancelled after 300 ms: settled ${median(latencies).toFixed(1)} ms after the cancel`,
    );

    const glob = `**/${'*a'.repeat(25)}b`;
    const listPlain = await medians(() =>
      approvedCall(inPlain('list_files'), { pattern: '**/*.ts' }),
    );
    const listHostile = await medians(() => approvedCall(inPlain('list_files'), { pattern: glob }));
    console.log(`list_files **/*.ts: ${shown(listPlain)}`);
    console.log(
      `list_files ${glob.slice(0, 12)}… (25 stars): ${shown(listHostile)} (ratio ${(listHostile.ms / listPlain.ms).toFixed(2)}x)`,
    );

    // No literal end to turn paths away: every position of the glob is carried along every path.
    const worst = `**/${'*a'.repeat(25)}?`;
    const listWorst = await medians(() => approvedCall(inPlain('list_files'), { pattern: worst }));
    console.log(
      `list_files ${worst.slice(0, 12)}… (25 stars, no literal end): ${shown(listWorst)} (ratio ${(listWorst.ms / listPlain.ms).toFixed(2)}x)`,
    );

    const ignored = await medians(() => approvedCall(inIgnoring('list_files'), {}));
    const unignored = await medians(() => approvedCall(inPlain('list_files'), {}));
    execFileSync('git', ['init', '-q'], { cwd: ignoring });
    const git = await medians(async () =>
      execFileSync('git', ['ls-files', '--others', '--exclude-standard'], {
        cwd: ignoring,
        maxBuffer: 1 << 26,
      }),
    );
    console.log(`list_files, no .gitignore: ${shown(unignored)}`);
    console.log(
      `list_files, .gitignore of ${RULES} lines: ${shown(ignored)} (ratio ${(ignored.ms / unignored.ms).toFixed(2)}x)`,
    );
    console.log(
      `git ls-files --others --exclude-standard, same tree: ${git.ms.toFixed(0)} ms (list_files ratio ${(ignored.ms / git.ms).toFixed(2)}x)`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
