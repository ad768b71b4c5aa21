import type { Agent } from 'dsh-user-interaction';
import type { ToolCallAgent } from 'dsh-user-interaction/agent-tool';

export type { ToolCallAgent };

/** Makes the per-call agent the loop passes into every ask. */
export function createToolCallAgent(agentId: string, toolCallId: string): ToolCallAgent {
  return Object.freeze({ id: agentId, toolCallId });
}

/**
 * The tool call a question belongs to, read from its request's `agent`; `undefined` when the
 * question was not asked by a tool call of this loop.
 */
export function toolCallIdOf(request: { readonly agent?: Agent } | undefined): string | undefined {
  const toolCallId = (request?.agent as { toolCallId?: unknown } | undefined)?.toolCallId;
  return typeof toolCallId === 'string' && toolCallId !== '' ? toolCallId : undefined;
}
