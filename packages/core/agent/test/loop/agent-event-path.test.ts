import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import type { Model, ModelEvent } from '../../src/models/model.js';

// How far an event travels from the model to the consumer: the loop hands each one on in one
// `yield` of one generator, not re-yielded through a generator per layer (each of which costs
// the event a few more turns of the microtask queue, and the promises that carry it).

const EVENTS = 200;

/** A model whose stream has every piece of text ready at once: only the loop's own hops count. */
function readyModel(): Model {
  return {
    id: 'ready',
    stream() {
      let sent = 0;
      const iterator: AsyncIterableIterator<ModelEvent> = {
        [Symbol.asyncIterator]() {
          return iterator;
        },
        next(): Promise<IteratorResult<ModelEvent>> {
          sent++;
          return Promise.resolve(
            sent <= EVENTS
              ? { done: false, value: { type: 'text-delta', text: 'x' } }
              : { done: true, value: undefined },
          );
        },
      };
      return iterator;
    },
  };
}

describe('the event path of a turn', () => {
  it('brings each model event to the consumer in a few turns of the microtask queue', async () => {
    const agent = createAgent({ model: readyModel(), interaction: createUserInteraction() });
    // A counter that goes up once per round of the microtask queue, while the turn runs.
    let rounds = 0;
    let counting = true;
    const count = (): void => {
      rounds++;
      if (counting) queueMicrotask(count);
    };
    const gaps: number[] = [];
    let last: number | undefined;
    let text = '';
    queueMicrotask(count);
    for await (const event of agent.run('go')) {
      if (event.type !== 'text') continue;
      text += event.text;
      if (last !== undefined) gaps.push(rounds - last);
      last = rounds;
    }
    counting = false;
    expect(text).toBe('x'.repeat(EVENTS));
    gaps.sort((a, b) => a - b);
    const median = gaps[gaps.length >> 1] ?? Number.NaN;
    // One generator between the model and the consumer: the model's promise, the race against
    // the turn's signal and the one `yield` take 4 rounds (a generator per layer took 11).
    expect(median).toBeLessThanOrEqual(5);
  });
});
