import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionCheck, ToolCallDescription } from 'dsh-agent';
import {
  createPermissionPolicy,
  openWorkspace,
  type PermissionPolicyOptions,
  type Workspace,
} from '../../src/index.js';

/** What the policy is asked for `run_command` of `command`, as the tool describes it. */
export function commandCheck(workspace: Workspace, command: string): PermissionCheck {
  const description: ToolCallDescription = {
    kind: 'execute',
    command: { command, cwd: workspace.root },
    locations: [{ path: workspace.root }],
  };
  return { toolName: 'run_command', args: { command }, description };
}

/** What the policy is asked for `tool` on `path` (relative to the workspace, or absolute). */
export function fileCheck(
  workspace: Workspace,
  tool: string,
  path: string,
  kind: ToolCallDescription['kind'] = 'edit',
): PermissionCheck {
  const absolute = path.startsWith('/') ? path : join(workspace.root, path);
  return { toolName: tool, args: { path }, description: { kind, locations: [{ path: absolute }] } };
}

/**
 * A new workspace under `base` (a test file's folder) with a policy of its own under `options`,
 * and `decide(command)`: what the policy says of `run_command` of that command there.
 */
export async function commandPolicy(
  base: string,
  options: Omit<PermissionPolicyOptions, 'workspace' | 'stateDir'> = {},
) {
  const folder = mkdtempSync(join(base, 'w-'));
  const workspace = await openWorkspace(folder);
  const policy = createPermissionPolicy({ workspace, stateDir: `${folder}-state`, ...options });
  const decide = (command: string) => policy.decide(commandCheck(workspace, command));
  return { folder, workspace, policy, decide };
}

/**
 * `setUp(options)` for a test file whose workspaces live under `base`: each call makes a new
 * workspace `w<n>` (with a `src` folder) and a policy over it, its state in `state<n>`.
 * `next` numbers the workspaces, for a test file that names its own folders after the number.
 */
export function policySetUp(base: string, next: () => number = counter()) {
  return async function setUp(
    options: { allow?: string[]; deny?: string[]; mode?: 'ask' | 'read-only' } = {},
  ) {
    const count = next();
    const folder = join(base, `w${count}`);
    mkdirSync(join(folder, 'src'), { recursive: true });
    const workspace = await openWorkspace(folder);
    const stateDir = join(base, `state${count}`);
    return {
      workspace,
      stateDir,
      policy: createPermissionPolicy({ workspace, stateDir, ...options }),
    };
  };
}

/** Numbers 1, 2, 3, … */
function counter(): () => number {
  let count = 0;
  return () => ++count;
}

/**
 * The rules of the attack on the fail-closed policy (attack-findings-*.test.ts): harmless programs
 * allowed, `touch` and `rm` denied. Each command a finding names is allowed by these rules, yet
 * bash runs a program the policy did not see, writes a file, or opens a connection. Each test
 * fails until the policy asks for it.
 */
export const FINDINGS_ALLOW = ['echo', 'ls', 'cat', 'sed', 'find', 'git status', 'npm test'].map(
  (rule) => `run_command:${rule}`,
);
export const FINDINGS_DENY = ['run_command:touch', 'run_command:rm'];

/** `setUp()` for the findings: `decide` of a new workspace under `base`, under those rules. */
export function findingsSetUp(base: string) {
  return async () =>
    (await commandPolicy(base, { allow: FINDINGS_ALLOW, deny: FINDINGS_DENY })).decide;
}
