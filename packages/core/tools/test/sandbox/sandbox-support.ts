import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { AgentTool } from 'dsh-agent';
import { approvedCall } from 'dsh-agent/testing';
import { createCommandSandbox, openWorkspace, type SandboxStatus } from '../../src/index.js';
import {
  createRunCommandTool,
  type RunCommandToolOptions,
} from '../../src/tools/run-command-tool.js';
import { testFileFolder } from '../support/test-folders.js';

/**
 * A folder for this file's tests under /var/tmp, removed after them: outside /tmp, so that the
 * sandbox's private /tmp does not hide it by itself, and what the tests see hidden was hidden
 * on purpose.
 */
export function sandboxTestFolder(prefix: string): string {
  return testFileFolder(prefix, '/var/tmp');
}

/** A person's home, a workspace (a git repository) and a state folder, made up in `base`. */
export async function makeUp(base: string, name: string) {
  const root = join(base, name);
  const home = join(root, 'home');
  const state = join(root, 'state');
  const folder = join(home, 'project');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
  writeFileSync(join(home, 'notes.txt'), 'readable notes');
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, 'rules.json'), '{"allow":[]}');
  mkdirSync(join(folder, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(folder, '.git', 'config'), '[core]\n');
  writeFileSync(join(folder, '.bashrc'), '# start-up\n');
  const workspace = await openWorkspace(folder);
  return { root, home, state, folder, workspace };
}

/** `run_command` of `folder` under `status`, and a call that describes then runs it. */
export function runner(
  made: { home: string; state: string; workspace: Awaited<ReturnType<typeof openWorkspace>> },
  status: SandboxStatus,
  options: Omit<RunCommandToolOptions, 'sandbox'> & {
    choice?: 'auto' | 'on' | 'off';
    hide?: readonly string[];
  } = {},
) {
  const sandbox = createCommandSandbox({
    status,
    home: made.home,
    stateDir: made.state,
    env: {},
    ...(options.choice !== undefined && { choice: options.choice }),
    ...(options.hide !== undefined && { hide: options.hide }),
  });
  const tool: AgentTool = createRunCommandTool(made.workspace, { ...options, sandbox });
  return {
    sandbox,
    tool,
    run: (command: string, extra: object = {}) =>
      approvedCall(tool, { command, ...extra }, { toolCallId: 'c' }),
  };
}

/** The ids of processes whose command line holds `token`. */
export function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^\d+ \(.*\) Z/.test(stat)) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(token)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** A program named `bwrap` in a new folder of `base` that writes `stderr` and exits with `status`. */
export function fakeBwrap(base: string, stderr: string, status: number): string {
  const folder = mkdtempSync(join(base, 'fake-bin-'));
  const path = join(folder, 'bwrap');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' '${stderr}' >&2\nexit ${status}\n`);
  chmodSync(path, 0o755);
  return path;
}
