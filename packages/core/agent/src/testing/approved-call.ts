import type { AgentTool, ToolContext, ToolResult } from '../loop/agent-tool.js';

/** The call's signal (a fresh one unless given) and id. */
export interface ApprovedCallOptions {
  readonly signal?: AbortSignal | undefined;
  readonly toolCallId?: string;
}

/**
 * Describes then runs one call of `tool`, as the loop does once the call is approved, and
 * returns its result with the description it ran under.
 */
export async function approvedCall(
  tool: AgentTool,
  args: unknown,
  { signal = new AbortController().signal, toolCallId = 'call-1' }: ApprovedCallOptions = {},
): Promise<ToolResult & { description: unknown }> {
  const description = await tool.describe?.(args, { signal, toolCallId });
  const context = { description, signal, toolCallId } as unknown as ToolContext;
  return { ...(await tool.execute(args, context)), description };
}
