import { expect } from 'vitest';
import type { Model, ModelEvent, ModelRequest } from '../../src/models/model.js';
import { isModelError, type ModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from '../../src/models/openai-compatible-model-options.js';

// A model on a loopback server, what it is asked and what it gives back (openai-compatible-model-*.test.ts).

/** The model at `url`, with a key and no retries unless `options` say otherwise. */
export function modelFor(url: string, options: OpenAICompatibleModelOptions = {}): Model {
  return createOpenAICompatibleModel({
    baseURL: url,
    model: 'test-model',
    apiKey: 'sk-test-secret-key',
    maxRetries: 0,
    ...options,
  });
}

/** A request for `hi`, with `overrides`. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Every event the model streams for `modelRequest`. */
export async function eventsOf(model: Model, modelRequest = request()): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of model.stream(modelRequest)) events.push(event);
  return events;
}

/** The model error streaming `modelRequest` ends with; its message never holds the key. */
export async function failureOf(model: Model, modelRequest = request()): Promise<ModelError> {
  const error = await eventsOf(model, modelRequest).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isModelError(error), String(error)).toBe(true);
  const failure = error as ModelError;
  expect(failure.message).not.toContain('sk-test-secret-key');
  return failure;
}
