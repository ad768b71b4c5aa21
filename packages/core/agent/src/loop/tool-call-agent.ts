import type { Agent } from 'dsh-user-interaction';

/**
 * The `agent` of a question asked by a tool call: the calling agent's `id`, plus the id of
 * the tool call that asks. It satisfies the contract's `Agent`, so any UI can route on `id`.
 */
export interface ToolCallAgent extends Agent {
  /** The id of the agent that runs the tool call. */
  readonly id: string;
  /** The id of the tool call, as the model wrote it and as `tool-call` events carry it. */
  readonly toolCallId: string;
}

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
