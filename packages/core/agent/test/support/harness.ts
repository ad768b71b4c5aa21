import { createUserInteraction, type UserInteractionCapabilities } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { expect } from 'vitest';
import type { AgentEvent } from '../../src/loop/agent-event.js';
import { type AgentOptions, createAgent } from '../../src/loop/create-agent.js';
import type { Model, ModelEvent, ModelMessage, ModelRequest } from '../../src/models/model.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';

/** Every event of a turn. */
export async function collect(turn: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of turn) events.push(event);
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
  const model = recording(createScriptedModel(script));
  const agent = createAgent({ id: 'agent-1', model, interaction, ...options.agent });
  return { agent, provider, interaction, model };
}

/** A model wrapper that records every request it gets. */
export function recording(model: Model): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: model.id,
    requests,
    stream(request) {
      requests.push(request);
      return model.stream(request);
    },
  };
}

/** A promise with its settle functions outside. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/**
 * A model the test drives event by event. Its stream ignores the signal on purpose, like a
 * careless model, so tests show the loop does not depend on it.
 */
export function controlledModel() {
  const requests: ModelRequest[] = [];
  const arrivals = new Map<number, ReturnType<typeof deferred<ModelRequest>>>();
  const arrival = (index: number) => {
    let waiter = arrivals.get(index);
    if (waiter === undefined) {
      waiter = deferred<ModelRequest>();
      arrivals.set(index, waiter);
    }
    return waiter;
  };
  let push: ((event: ModelEvent | Error | 'end') => void) | undefined;
  let returned = 0;
  const model: Model = {
    id: 'controlled',
    stream(request) {
      const queue: (ModelEvent | Error | 'end')[] = [];
      let wake: (() => void) | undefined;
      push = (event) => {
        queue.push(event);
        wake?.();
      };
      requests.push(request);
      arrival(requests.length - 1).resolve(request);
      return {
        [Symbol.asyncIterator]() {
          return {
            async next(): Promise<IteratorResult<ModelEvent>> {
              while (queue.length === 0) {
                await new Promise<void>((resolve) => {
                  wake = resolve;
                });
              }
              const event = queue.shift() as ModelEvent | Error | 'end';
              if (event === 'end') return { done: true, value: undefined };
              if (event instanceof Error) throw event;
              return { done: false, value: event };
            },
            async return(): Promise<IteratorResult<ModelEvent>> {
              returned++;
              return { done: true, value: undefined };
            },
          };
        },
      };
    },
  };
  return {
    model,
    requests,
    /** Resolves with the n-th request (0-based) when it arrives. */
    request: (index: number) => arrival(index).promise,
    /** Sends an event (an Error is thrown, 'end' ends the stream) to the latest request. */
    send: (event: ModelEvent | Error | 'end') => push?.(event),
    /** How many times the loop told a stream to stop. */
    get returned() {
      return returned;
    },
  };
}
