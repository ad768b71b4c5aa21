import { afterEach, describe, expect, it } from 'vitest';
import type { ModelEvent } from '../../src/models/model.js';
import { isModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import {
  MAX_STREAM_EVENT_BYTES,
  StreamEventTooLargeError,
  wholeEvents,
} from '../../src/models/whole-events.js';
import { chunk } from '../../src/testing.js';
import { closeServers, serve } from '../support/chat-servers.js';

afterEach(closeServers);

const MB = 1_000_000;

function modelFor(url: string) {
  return createOpenAICompatibleModel({ baseURL: url, model: 'test-model', apiKey: 'sk-test' });
}

function request(signal = new AbortController().signal) {
  return { messages: [{ role: 'user' as const, content: 'hi' }], tools: [], signal };
}

/** What `wholeEvents` makes of `pieces`, as text per chunk. */
async function recut(pieces: readonly string[], limitBytes?: number): Promise<string[]> {
  const encoder = new TextEncoder();
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  const out: string[] = [];
  const decoder = new TextDecoder();
  for await (const part of source.pipeThrough(wholeEvents(limitBytes))) {
    out.push(decoder.decode(part));
  }
  return out;
}

describe('one huge stream line', () => {
  it('streams a 50 MB line in one event, in linear time', async () => {
    const text = 'x'.repeat(50 * MB);
    const server = await serve({ chunks: [chunk({ content: text }), chunk({}, 'stop')] });
    const events: ModelEvent[] = [];
    for await (const event of modelFor(server.url).stream(request())) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'finish']);
    expect(events[0]).toEqual({ type: 'text-delta', text });
    // Quadratic, 16 MB took 17 s and 50 MB never ended (over 65 s): the test's time limit is
    // what it would hit. Linear, it takes 1-3 s; `pnpm bench` (model-stream-line) measures it
    // against a plain read of the same body, and no wall-clock figure gates the suite.
  }, 60_000);

  it('refuses an event larger than the limit with MODEL_BAD_RESPONSE, cutting the stream', async () => {
    const server = await serve({
      chunks: [
        `{"choices":[{"index":0,"delta":{"content":"${'y'.repeat(MAX_STREAM_EVENT_BYTES)}"}}]}`,
      ],
    });
    let error: unknown;
    try {
      for await (const _ of modelFor(server.url).stream(request())) {
        // Nothing is expected.
      }
    } catch (caught) {
      error = caught;
    }
    expect(isModelError(error, 'MODEL_BAD_RESPONSE'), String(error)).toBe(true);
    expect((error as Error).message).toBe(
      `The model server at ${server.url} sent a stream event larger than 64 MiB, the most this client takes. Check that the base URL points to an OpenAI-compatible server, and ask for a shorter answer.`,
    );
    await server.requests[0]?.closed;
    expect(server.requests).toHaveLength(1);
  }, 30_000);

  it('can be cancelled in the middle of a huge line', async () => {
    const server = await serve({
      chunks: [`{"choices":[{"index":0,"delta":{"content":"${'z'.repeat(8 * MB)}`],
      hold: true,
      done: false,
    });
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    const stream = (async () => {
      for await (const event of modelFor(server.url).stream(request(controller.signal))) {
        events.push(event);
      }
    })();
    const arrived = await server.request(0);
    controller.abort();
    await stream;
    await arrived.closed;
    expect(events).toEqual([]);
    expect(arrived.finished()).toBe(false);
  });
});

describe('wholeEvents', () => {
  it('cuts chunks where events end, whichever line ends the server uses', async () => {
    expect(await recut(['data: a', 'b\n', '\ndata: c\n\nda', 'ta: d\n\n'])).toEqual([
      // Up to the last event end of a chunk, in one piece.
      'data: ab\n\ndata: c\n\n',
      'data: d\n\n',
    ]);
    expect(await recut(['data: a\r', '\rdata: b\r\n', '\r\n'])).toEqual([
      'data: a\r\r',
      'data: b\r\n\r\n',
    ]);
    // A last event without its blank line is handed on at the end.
    expect(await recut(['data: a\n\ndata: b'])).toEqual(['data: a\n\n', 'data: b']);
  });

  it('errors the stream once an event passes the limit', async () => {
    await expect(recut(['data: 12345', '67890', '\n\n'], 8)).rejects.toBeInstanceOf(
      StreamEventTooLargeError,
    );
    expect(await recut(['data: 1', '\n\n'], 8)).toEqual(['data: 1\n\n']);
  });
});
