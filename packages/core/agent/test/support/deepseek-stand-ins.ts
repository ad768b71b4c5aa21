import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { createAgent } from '../../src/loop/create-agent.js';
import { DEEPSEEK_MODEL } from '../../src/models/deepseek.js';
import type { ModelEvent } from '../../src/models/model.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from '../../src/models/openai-compatible-model-options.js';
import { type StandInReply, type StandInTurn, startDeepSeekStandIn } from '../../src/testing.js';

// DeepSeek stand-ins on loopback, and agents and models on them (deepseek-*.test.ts).

/** The stand-ins open, closed by `closeStandIns` (a test may add one it started itself). */
export const standIns: { close(): Promise<void> }[] = [];

/** Closes every stand-in started since the last call (for `afterEach`). */
export async function closeStandIns(): Promise<void> {
  await Promise.all(standIns.splice(0).map((standIn) => standIn.close()));
}

/** A DeepSeek stand-in answering with `reply`, closed by `closeStandIns`. */
export async function standIn(reply?: (turn: StandInTurn) => StandInReply) {
  const server = await startDeepSeekStandIn(reply === undefined ? {} : { reply });
  standIns.push(server);
  return server;
}

export type StandIn = Awaited<ReturnType<typeof standIn>>;

/** An agent on DeepSeek at `server`, its questions answered by `answers`. */
export function deepSeekAgent(
  server: StandIn,
  options: Partial<OpenAICompatibleModelOptions> = {},
  answers = [{ label: 'Blue' }] as { label: string }[],
) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers });
  interaction.registerProvider(provider);
  const model = createOpenAICompatibleModel({
    baseURL: server.url,
    apiKey: server.apiKey,
    model: DEEPSEEK_MODEL,
    maxRetries: 0,
    ...options,
  });
  return { agent: createAgent({ model, interaction }), provider };
}

/** Every event `model` streams for `messages`. */
export async function collectModel(
  model: ReturnType<typeof createOpenAICompatibleModel>,
  messages: readonly object[],
): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  const request = {
    messages: messages as never,
    tools: [],
    signal: new AbortController().signal,
  };
  for await (const event of model.stream(request)) events.push(event);
  return events;
}
