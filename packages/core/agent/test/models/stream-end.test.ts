import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelEvent } from '../../src/models/model.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from '../../src/models/openai-compatible-model-options.js';
import { chunk, textChunks } from '../../src/testing.js';
import { closeServers, serve } from '../support/chat-servers.js';

afterEach(closeServers);

function modelFor(url: string, options: OpenAICompatibleModelOptions = {}) {
  return createOpenAICompatibleModel({
    baseURL: url,
    model: 'test-model',
    apiKey: 'sk-test',
    ...options,
  });
}

async function eventsOf(url: string, options: OpenAICompatibleModelOptions = {}) {
  const events: ModelEvent[] = [];
  const signal = new AbortController().signal;
  const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [], signal };
  for await (const event of modelFor(url, options).stream(request)) events.push(event);
  return events;
}

describe('the end of a stream after the model finished', () => {
  it('completes the answer when the server then sends only keep-alives and never ends', async () => {
    const server = await serve({
      chunks: textChunks('done'),
      // Keep-alives far more often than the bound: they must not hold the answer open.
      keepAliveEveryMs: 5,
    });
    const events = await eventsOf(server.url, { finishWaitMs: 100 });
    expect(events).toEqual([
      { type: 'text-delta', text: 'done' },
      { type: 'finish', reason: 'stop' },
    ]);
    // The connection was cut by the client, not ended by the server.
    const recorded = await server.request(0);
    await recorded.closed;
    expect(recorded.finished()).toBe(false);
  });

  it('cuts a stream that never ends finishWaitMs after the finish, keep-alives or not (by the clock)', async () => {
    // A body the test writes, and a fake clock: the cut comes at 100 ms exactly, not before.
    vi.useFakeTimers();
    try {
      const encoder = new TextEncoder();
      let body!: ReadableStreamDefaultController<Uint8Array>;
      let cut = false;
      const fakeFetch: typeof fetch = async (_input, init) => {
        const stream = new ReadableStream<Uint8Array>({
          start: (controller) => {
            body = controller;
          },
        });
        init?.signal?.addEventListener(
          'abort',
          () => {
            cut = true;
            body.error(init.signal?.reason);
          },
          { once: true },
        );
        return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
      };
      const send = (text: string) => body.enqueue(encoder.encode(text));
      const seen: ModelEvent[] = [];
      const request = {
        messages: [{ role: 'user' as const, content: 'hi' }],
        tools: [],
        signal: new AbortController().signal,
      };
      const model = modelFor('http://127.0.0.1:1/v1', { finishWaitMs: 100, fetch: fakeFetch });
      const done = (async () => {
        for await (const event of model.stream(request)) seen.push(event);
      })();
      // Runs what is due now, the clock standing still (`vi.waitFor` would move it).
      const settle = async (done: () => boolean) => {
        for (let turn = 0; turn < 1_000 && !done(); turn++) await vi.advanceTimersByTimeAsync(0);
        expect(done()).toBe(true);
      };
      await settle(() => body !== undefined);
      for (const part of textChunks('done')) send(`data: ${JSON.stringify(part)}\n\n`);
      await settle(() => seen.length > 0);
      for (let elapsed = 0; elapsed < 99; elapsed += 9) {
        send(': keep-alive\n\n');
        await vi.advanceTimersByTimeAsync(9);
      }
      // 99 ms after the finish: still open.
      expect(cut).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(cut).toBe(true);
      await done;
      expect(seen).toEqual([
        { type: 'text-delta', text: 'done' },
        { type: 'finish', reason: 'stop' },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps tool calls that were complete at the finish', async () => {
    const server = await serve({
      chunks: [
        chunk({
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'look', arguments: '{}' },
            },
          ],
        }),
        chunk({}, 'tool_calls'),
      ],
      keepAliveEveryMs: 5,
    });
    const events = await eventsOf(server.url, { finishWaitMs: 20 });
    expect(events).toEqual([
      { type: 'tool-call', call: { id: 'call_1', name: 'look', arguments: '{}' } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('still waits for a server that ends its stream in time, without cutting it', async () => {
    const server = await serve({ chunks: textChunks('a', 'b') });
    const events = await eventsOf(server.url, { finishWaitMs: 60_000 });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const recorded = await server.request(0);
    await recorded.closed;
    expect(recorded.finished()).toBe(true);
  });

  it('takes finishWaitMs as a whole number of milliseconds only', () => {
    for (const finishWaitMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => modelFor('http://127.0.0.1:1/v1', { finishWaitMs })).toThrow(
        /finishWaitMs must be a whole number of milliseconds/,
      );
    }
  });
});
