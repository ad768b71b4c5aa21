/** The calling agent, as the contract sees it: anything with a stable id. */
export interface Agent {
  /** Identifies the agent (and, for UIs that route questions, its session). */
  readonly id: string;
}
