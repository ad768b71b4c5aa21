import type { Model, ModelEvent, ModelRequest } from '../models/model.js';

/** One model request, answered by a test. */
export type ModelStep = (request: ModelRequest) => AsyncIterable<ModelEvent>;

/** A model that records every request it gets. */
export interface RecordingModel extends Model {
  readonly requests: ModelRequest[];
}

/** A model made of steps, one per request; past the last one, it fails the test loudly. */
export function stepModel(...steps: ModelStep[]): RecordingModel {
  const requests: ModelRequest[] = [];
  return {
    id: 'test-model',
    requests,
    stream(request) {
      requests.push(request);
      const step = steps[requests.length - 1];
      if (step === undefined) throw new Error(`The test model has no step ${requests.length}.`);
      return step(request);
    },
  };
}

/** A step that streams these pieces of text and ends the turn. */
export function textStep(...pieces: string[]): ModelStep {
  return async function* () {
    for (const text of pieces) yield { type: 'text-delta', text };
    yield { type: 'finish', reason: 'stop' };
  };
}

/** `model`, recording every request before it answers. */
export function recordingModel(model: Model): RecordingModel {
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

/** Rejects when `signal` aborts: a model that waits on the network until it is cancelled. */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
