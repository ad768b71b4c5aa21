import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTool } from 'dsh-agent';
import { approvedCall } from 'dsh-agent/testing';
import { createWorkspaceTools, openWorkspace } from '../../src/index.js';

/**
 * `setUp(files)` for a test file whose workspaces live under `base` (its `testFileFolder`): each
 * call makes a new workspace `w<n>` holding `files` (paths relative to it), and its tools.
 * `next` numbers the workspaces, for a test file that names its own folders after the number.
 */
export function workspaceSetUp(base: string, next: () => number = counter()) {
  return async function setUp(files: Record<string, string | Buffer> = {}) {
    const count = next();
    const folder = join(base, `w${count}`);
    mkdirSync(folder);
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(join(folder, name, '..'), { recursive: true });
      writeFileSync(join(folder, name), content);
    }
    const workspace = await openWorkspace(folder);
    const tools = createWorkspaceTools({ workspace });
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    return { workspace, folder, tools, tool: (name: string) => byName.get(name) as AgentTool };
  };
}

/** Describes then runs a call, as the loop does once it is approved. */
export function callApproved(tool: AgentTool, args: unknown, signal?: AbortSignal) {
  return approvedCall(tool, args, { signal, toolCallId: 'c' });
}

/** Numbers 1, 2, 3, … */
function counter(): () => number {
  let count = 0;
  return () => ++count;
}
