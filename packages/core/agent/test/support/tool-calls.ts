import type { AgentEvent } from '../../src/loop/agent-event.js';
import type { AgentTool } from '../../src/loop/agent-tool.js';
import type { Script } from '../../src/script/script.js';

// A call to make, a tool to call and the result to read (agent-tools-*.test.ts).

/** One step making the given call, then a step that quotes its result and ends the turn. */
export function oneCall(
  call: Script['steps'][number]['toolCalls'] extends readonly (infer C)[] | undefined ? C : never,
): Script {
  return {
    steps: [{ toolCalls: [{ id: 'c1', ...call }] }, { text: 'got: {{answer:c1}}' }],
  };
}

/** The result of the turn's first tool call. */
export function resultOf(events: readonly AgentEvent[]) {
  const result = events.find((event) => event.type === 'tool-result');
  if (result?.type !== 'tool-result') throw new Error('no tool-result event');
  return result.result;
}

/** A tool that gives back its `text`, titled after it. */
export const echo: AgentTool = {
  name: 'echo',
  description: 'Echoes its text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  title: (args) => `Echo ${(args as { text: string }).text}`,
  execute: async (args) => ({ ok: true, output: (args as { text: string }).text }),
};
