import type { Agent, ToolError } from 'dsh-user-interaction';

/** What an MCP tool's call receives: the shape of `dsh-agent`'s `ToolContext` that it reads. */
export interface McpToolContext {
  /** Aborts when the turn is cancelled. */
  readonly signal: AbortSignal;
  readonly toolCallId: string;
  /** The calling agent for this call; questions the server asks meanwhile are routed with it. */
  readonly agent?: Agent;
  /** Stores durably what a 2026-07-28 call needs to go on after a stop (`dsh-agent`'s `ToolContext`). */
  recordPending?(state: string): Promise<void>;
  /** What the call stored with `recordPending` before the program stopped: it goes on from there. */
  readonly pending?: string;
}

/** What an MCP tool's call gives the model: the shape of `dsh-agent`'s `ToolResult`. */
export type McpToolResult =
  | { readonly ok: true; readonly output: string }
  | { readonly ok: false; readonly output: string; readonly error: ToolError };

/** What an MCP call is said to do before it runs: kind `other`, a title with server, tool and arguments. */
export interface McpToolCallDescription {
  readonly kind: 'other';
  readonly title: string;
}

/**
 * An MCP tool as an agent tool: fits `dsh-agent`'s `AgentTool` without this package depending on
 * the agent loop (a test checks that it does).
 */
export interface McpAgentTool {
  /** `mcp__<server>__<tool>`, at most 64 characters. */
  readonly name: string;
  /** The server's description, read afresh at every model request, with the codes a call can fail with. */
  readonly description: () => string;
  /** The tool's input schema as the server says it now. */
  readonly parameters: object;
  title(args: unknown): string;
  describe(args: unknown): McpToolCallDescription;
  execute(args: unknown, context: McpToolContext): Promise<McpToolResult>;
}
