import type { AgentTool, PermissionPolicy, PermissionVerdict } from 'dsh-agent';

/** Stand-ins for the workspace tools: each says what it will do (`describe`) and counts its runs. */
export interface DescribedTools {
  readonly tools: AgentTool[];
  /** The arguments of every call that ran, by tool name. */
  readonly runs: Map<string, unknown[]>;
}

function record(runs: Map<string, unknown[]>, name: string, args: unknown): void {
  runs.set(name, [...(runs.get(name) ?? []), args]);
}

/**
 * `edit_file` (replaces `old` with `new` in a file of `cwd` it pretends holds `old`; `old`
 * null: a new file) and `run_command` (prints what it is given; exit status 0), both gated.
 */
export function describedTools(cwd: string): DescribedTools {
  const runs = new Map<string, unknown[]>();
  const pathOf = (args: unknown): string =>
    `${cwd}/${String((args as { path?: unknown }).path ?? 'a.txt')}`;
  const edit: AgentTool = {
    name: 'edit_file',
    description: 'Edits a file.',
    parameters: { type: 'object' },
    title: (args) => `Edit ${String((args as { path?: unknown }).path)}`,
    describe(args) {
      const { old = 'old\n', new: next = 'new\n' } = args as { old?: string | null; new?: string };
      const path = pathOf(args);
      return {
        kind: 'edit',
        title: `Edit ${path}`,
        locations: [{ path, line: 1 }],
        edit: { path, oldText: old, newText: next },
      };
    },
    async execute(args, context) {
      record(runs, 'edit_file', args);
      const change = context.description?.edit;
      return {
        ok: true,
        output: `Edited ${pathOf(args)}.`,
        ...(change !== undefined && { details: { edit: change } }),
      };
    },
  };
  const command: AgentTool = {
    name: 'run_command',
    description: 'Runs a command.',
    parameters: { type: 'object' },
    describe(args) {
      const line = String((args as { command?: unknown }).command);
      return { kind: 'execute', title: `Run ${line}`, command: { command: line, cwd } };
    },
    async execute(args) {
      record(runs, 'run_command', args);
      const line = String((args as { command?: unknown }).command);
      return {
        ok: true,
        output: `$ ${line}\n3 tests passed\n`,
        details: { exit: { code: 0, signal: null } },
      };
    },
  };
  return { tools: [edit, command], runs };
}

/** A policy that asks, offering "always" for the tool, and then allows what was remembered. */
export function rememberingPolicy(): PermissionPolicy & { readonly rules: [string, string][] } {
  const rules: [string, string][] = [];
  return {
    rules,
    decide({ toolName }): PermissionVerdict {
      const rule = `${toolName}:*`;
      const kept = rules.find(([name]) => name === rule);
      if (kept !== undefined) {
        return {
          decision: kept[1] === 'allow' ? 'allow' : 'deny',
          decidedBy: { kind: 'rule', rule, source: 'workspace rules' },
        };
      }
      return {
        decision: 'ask',
        allowAlways: { rule, description: `Always allow \`${toolName}\` in this folder` },
        rejectAlways: { rule, description: `Always reject \`${toolName}\` in this folder` },
      };
    },
    remember(rule, effect) {
      rules.push([rule, effect]);
    },
  };
}
