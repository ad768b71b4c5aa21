import type { AgentTool, PermissionPolicy } from 'dsh-agent';
import { asMcpRulesFile, connectMcpServers, type McpServerConfig, withMcpRules } from 'dsh-mcp';
import type { UserInteraction } from 'dsh-user-interaction';

/** The MCP servers of a terminal session: their tools, the policy that gates them, and how to stop them. */
export interface TerminalMcpServers {
  readonly tools: readonly AgentTool[];
  readonly permissions: PermissionPolicy;
  /** Stops every server (a stdio server's process is ended). */
  close(): Promise<void>;
}

/** How many of a server's last stderr lines are kept, to show when it fails to connect. */
const KEPT_LINES = 20;

/**
 * Connects the `--mcp-config` servers before the first prompt, their questions asked in this
 * terminal. `say` gets one line per server (connected with its tool count, or not and why, with
 * the last lines it wrote on stderr). While the session runs a server's stderr is not written on
 * the screen, where it would break the question UI.
 */
export async function startMcpServers(
  configs: readonly McpServerConfig[],
  interaction: UserInteraction,
  permissions: PermissionPolicy | undefined,
  say: (line: string) => void,
  {
    trustReadOnlyHint = [],
    questionTimeoutMs,
  }: {
    readonly trustReadOnlyHint?: readonly string[];
    /** `--timeout`: each of a server's questions has as long as ours, counted down the same way. */
    readonly questionTimeoutMs?: number;
  } = {},
): Promise<TerminalMcpServers> {
  const stderr = new Map<string, string[]>();
  const status = await connectMcpServers(configs, {
    interaction,
    ...(questionTimeoutMs !== undefined && { elicitation: { timeoutMs: questionTimeoutMs } }),
    log: (line) => {
      const name = /^\[([^\]]+)\] /.exec(line)?.[1];
      if (name === undefined) return;
      const kept = stderr.get(name) ?? [];
      kept.push(line);
      if (kept.length > KEPT_LINES) kept.shift();
      stderr.set(name, kept);
    },
  });
  for (const line of status.lines) say(line);
  for (const { name } of status.failures)
    for (const line of stderr.get(name) ?? []) say(`  ${line}`);
  const sets = status.connections.map((connection) => connection.tools);
  const rulesFile = asMcpRulesFile(permissions);
  return {
    // Tools listed at start; a tool a server adds later is not offered before the next session.
    tools: sets.flatMap((set) => set.tools),
    permissions: withMcpRules({
      toolSets: () => sets,
      ...(permissions !== undefined && { fallback: permissions }),
      // "Always" for an MCP tool goes to the workspace's rules file, as for the workspace tools,
      // and is read back at the next start (with --allow and --deny).
      ...(rulesFile !== undefined && { rulesFile }),
      // `--mcp-trust-read-only`: only these servers' readOnlyHint lets a call run unasked.
      trustReadOnlyHint,
    }),
    close: () => status.close(),
  };
}
