import { createUserInteraction, type UserInteractionCapabilities } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { expect } from 'vitest';
import type { AgentEvent } from '../../src/loop/agent-event.js';
import { type AgentOptions, type ChatAgent, createAgent } from '../../src/loop/create-agent.js';
import type { ModelMessage } from '../../src/models/model.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { recordingModel } from '../../src/testing.js';

/** Every event of a turn. */
export async function collect(turn: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of turn) events.push(event);
  return events;
}

/** Every event of a turn on `prompt`, cancelling the turn as its first piece of text arrives. */
export async function collectCancelledAtText(
  agent: Pick<ChatAgent, 'run'>,
  prompt: string,
): Promise<AgentEvent[]> {
  const controller = new AbortController();
  const events: AgentEvent[] = [];
  for await (const event of agent.run(prompt, { signal: controller.signal })) {
    events.push(event);
    if (event.type === 'text') controller.abort();
  }
  return events;
}

/** The concatenated text of a turn's events. */
export function textOf(events: readonly AgentEvent[]): string {
  return events.map((event) => (event.type === 'text' ? event.text : '')).join('');
}

/** The last event, which must be the only `turn-end`. */
export function endOf(events: readonly AgentEvent[]): Extract<AgentEvent, { type: 'turn-end' }> {
  const ends = events.filter((event) => event.type === 'turn-end');
  expect(ends).toHaveLength(1);
  expect(events.at(-1)).toBe(ends[0]);
  return ends[0] as Extract<AgentEvent, { type: 'turn-end' }>;
}

/**
 * Asserts what any model requires of a conversation: each assistant tool call is followed by
 * exactly one result, in order, before the next assistant or user message; no stray results.
 */
export function expectValidConversation(messages: readonly ModelMessage[]): void {
  let waiting: string[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      expect(waiting[0], `a result for ${message.toolCallId}`).toBe(message.toolCallId);
      waiting = waiting.slice(1);
      continue;
    }
    expect(waiting, `results missing before a ${message.role} message`).toEqual([]);
    if (message.role === 'assistant') waiting = (message.toolCalls ?? []).map((call) => call.id);
  }
  expect(waiting, 'results missing at the end').toEqual([]);
}

/** An agent on a scripted model, asking through a scripted provider. */
export function scriptedAgent(
  script: Script,
  options: {
    answers?: ScriptedAnswer[];
    capabilities?: UserInteractionCapabilities;
    ignoreSignal?: boolean;
    agent?: Partial<AgentOptions>;
  } = {},
) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({
    answers: options.answers ?? [],
    ...(options.capabilities !== undefined && { capabilities: options.capabilities }),
    ...(options.ignoreSignal !== undefined && { ignoreSignal: options.ignoreSignal }),
  });
  interaction.registerProvider(provider);
  const model = recordingModel(createScriptedModel(script));
  const agent = createAgent({ id: 'agent-1', model, interaction, ...options.agent });
  return { agent, provider, interaction, model };
}
