import { expect } from 'vitest';
import type { Model, ModelEvent, ModelRequest } from '../../src/models/model.js';
import { isModelError, type ModelError } from '../../src/models/model-error.js';
import type { OpenAICompatibleModelOptions } from '../../src/models/openai-compatible-model-options.js';
import { modelFor as modelWithoutRetries } from './openai-model-requests.js';

// A model that retries, on a loopback server, and what its streams gave (model-retries, model-time-limits).

/** The model at `url`, retrying as by default but 1 ms apart, unless `options` say otherwise. */
export function modelFor(url: string, options: OpenAICompatibleModelOptions = {}): Model {
  // `maxRetries: undefined` is the default number of retries (the other tests' model makes none).
  return modelWithoutRetries(url, {
    apiKey: 'sk-test',
    maxRetries: undefined,
    retryDelayMs: 1,
    ...options,
  });
}

/** A request for `hi`, cancelled by `signal`. */
export function request(signal: AbortSignal = new AbortController().signal): ModelRequest {
  return { messages: [{ role: 'user', content: 'hi' }], tools: [], signal };
}

/** The events a stream gave, and the error it failed with, if any. */
export async function run(model: Model, modelRequest = request()) {
  const events: ModelEvent[] = [];
  try {
    for await (const event of model.stream(modelRequest)) events.push(event);
  } catch (error) {
    expect(isModelError(error), String(error)).toBe(true);
    return { events, error: error as ModelError };
  }
  return { events, error: undefined };
}

/** The retry events among `events`. */
export const retriesOf = (events: readonly ModelEvent[]) =>
  events.filter((event) => event.type === 'retry');
