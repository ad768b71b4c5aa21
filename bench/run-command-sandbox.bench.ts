// The cost of the sandbox: `run_command` of `true` in bubblewrap against the same call with no
// sandbox, interleaved in one run (medians). Also bwrap alone, to tell its own start from ours.
// Goal: the sandbox adds under 30 ms. A temporary workspace, removed at the end.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentTool } from 'dsh-agent';
import { approvedCall } from 'dsh-agent/testing';
import { createCommandSandbox, createWorkspaceTools, openWorkspace, probeSandbox } from 'dsh-tools';
import { median } from './fixtures/median.js';

const ROUNDS = 30;

async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function runTool(tools: AgentTool[]): AgentTool {
  return tools.find((tool) => tool.name === 'run_command') as AgentTool;
}

export async function run(): Promise<void> {
  const status = await probeSandbox();
  if (!status.available) {
    console.log(`skipped: no sandbox here (${status.reason})`);
    return;
  }
  const folder = mkdtempSync(join(tmpdir(), 'dsh-bench-sandbox-'));
  try {
    const workspace = await openWorkspace(folder);
    const bare = runTool(createWorkspaceTools({ workspace }));
    const sandboxed = runTool(
      createWorkspaceTools({ workspace, sandbox: createCommandSandbox({ status }) }),
    );
    const times = { bare: [] as number[], sandboxed: [] as number[], bwrap: [] as number[] };
    const bwrapArgs = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid'];
    for (let round = 0; round < ROUNDS; round++) {
      times.bare.push(await timed(() => approvedCall(bare, { command: 'true' })));
      times.sandboxed.push(await timed(() => approvedCall(sandboxed, { command: 'true' })));
      times.bwrap.push(
        await timed(() => execFileSync(status.bwrap, [...bwrapArgs, '--unshare-net', 'true'])),
      );
    }
    const [b, s, w] = [median(times.bare), median(times.sandboxed), median(times.bwrap)];
    console.log(
      `run_command true: bare ${b.toFixed(1)} ms, sandboxed ${s.toFixed(1)} ms: the sandbox adds ${(s - b).toFixed(1)} ms (ratio ${(s / b).toFixed(2)}x; goal under 30 ms added)`,
    );
    console.log(`bwrap alone (same namespaces, true): ${w.toFixed(1)} ms`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
