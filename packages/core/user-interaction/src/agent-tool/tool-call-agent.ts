import type { Agent } from '../agent.js';

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
