import { finished, type Readable } from 'node:stream';

/** How many chunks may wait to be read before the input is paused. */
const HIGH_WATER_CHUNKS = 16;

/** The chunks of a Node stream, read one at a time. */
export interface InputChunks {
  /** The next chunk; `undefined` once the stream has ended; rejects once it failed. */
  next(): Promise<Uint8Array | undefined>;
  /** Stops reading and destroys the stream; a waiting `next()` and later ones settle with `reason`. */
  cancel(reason?: unknown): void;
}

/**
 * Reads `input` chunk by chunk, as `Readable.toWeb(input).getReader()` does, without a web
 * stream between: each chunk is one promise, where the adapter makes a read request, a queue
 * entry and a pull per chunk. The input is paused while `HIGH_WATER_CHUNKS` chunks wait. Ends
 * as `toWeb` ends (`finished`): a stream closed before its end fails with that error.
 */
export function inputChunks(input: Readable): InputChunks {
  const waiting: Uint8Array[] = [];
  let reader:
    | { resolve: (chunk: Uint8Array | undefined) => void; reject: (error: unknown) => void }
    | undefined;
  let end: { readonly error: unknown } | undefined;
  const onData = (chunk: Uint8Array | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const waiter = reader;
    if (waiter !== undefined) {
      reader = undefined;
      waiter.resolve(bytes);
      return;
    }
    waiting.push(bytes);
    if (waiting.length >= HIGH_WATER_CHUNKS) input.pause();
  };
  input.on('data', onData);
  const stopWatching = finished(input, (error) => {
    input.removeListener('data', onData);
    end = { error };
    const waiter = reader;
    reader = undefined;
    if (waiter === undefined) return;
    if (error === undefined || error === null) waiter.resolve(undefined);
    else waiter.reject(error);
  });
  return {
    next() {
      const chunk = waiting.shift();
      if (chunk !== undefined) {
        if (waiting.length === 0 && input.isPaused() && end === undefined) input.resume();
        return Promise.resolve(chunk);
      }
      if (end !== undefined) {
        return end.error === undefined || end.error === null
          ? Promise.resolve(undefined)
          : Promise.reject(end.error);
      }
      return new Promise((resolve, reject) => {
        reader = { resolve, reject };
      });
    },
    cancel(reason) {
      input.removeListener('data', onData);
      stopWatching();
      end ??= { error: reason };
      waiting.length = 0;
      const waiter = reader;
      reader = undefined;
      waiter?.reject(reason);
      // Without the reason: nobody listens for the stream's errors any more.
      input.destroy();
    },
  };
}
