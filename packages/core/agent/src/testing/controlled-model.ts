import type { Model, ModelEvent, ModelRequest } from '../models/model.js';
import { deferred } from './deferred.js';

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
