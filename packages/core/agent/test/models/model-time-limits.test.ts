import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModelEvent } from '../../src/models/model.js';
import { isModelError, type ModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import { chunk, textChunks } from '../../src/testing.js';
import { closeServers, retryAfterSilence, serve } from '../support/chat-servers.js';
import { modelFor, request, retriesOf, run } from '../support/retry-runs.js';

afterEach(async () => {
  vi.useRealTimers();
  await closeServers();
});

// A process's first request loads Node's HTTP client. On a busy machine that takes longer than
// the first test's 100 ms limit, and that attempt is given up before the server sees it. These
// tests followed the retries tests in one file, which loaded it; load it here first.
beforeAll(async () => {
  const server = await serve({ chunks: textChunks('warm') });
  expect((await run(modelFor(server.url))).error).toBeUndefined();
});

describe('the time limit on a silent server', () => {
  it('sends a request the server never answers again at once, and then fails with the real wait', async () => {
    const server = await serve({ stall: true }, { stall: true }, { stall: true });
    const { events, error } = await run(modelFor(server.url, { timeoutMs: 100 }));
    expect(retriesOf(events)).toEqual([
      retryAfterSilence(server.url, 100),
      expect.objectContaining({ attempt: 3, delayMs: 0 }),
    ]);
    expect(error?.code).toBe('MODEL_TIMEOUT');
    const said = /; 3 attempts, (\d+) ms in all\. It may be down or overloaded/.exec(
      error?.message ?? '',
    );
    // The figure is the wait as it was; the test on a fake clock below checks it exactly.
    expect(said, error?.message).not.toBeNull();
    expect(server.requests).toHaveLength(3);
    // Each attempt's connection was closed when given up.
    await Promise.all(server.requests.map((received) => received.closed));
  });

  it('counts the wait for the first piece of a stream whose headers came', async () => {
    const server = await serve({ chunks: [], hold: true }, { chunks: textChunks('there') });
    // Long enough that the second attempt, answered at once, never times out on a busy machine.
    const { events, error } = await run(modelFor(server.url, { timeoutMs: 400 }));
    expect(error).toBeUndefined();
    expect(events.map((event) => event.type)).toEqual(['retry', 'text-delta', 'finish']);
  });

  it('fails a stream that stops in the middle without sending it again', async () => {
    const server = await serve(
      { chunks: [chunk({ content: 'Hel' })], hold: true },
      { chunks: textChunks('never') },
    );
    const { events, error } = await run(modelFor(server.url, { timeoutMs: 100 }));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(error?.code).toBe('MODEL_TIMEOUT');
    expect(error?.message).toBe(
      `The model server at ${server.url} stopped in the middle of its answer: nothing for 100 ms. Try again, or allow it more time.`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('never cuts an answer that keeps streaming past the limit (by the clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    const encoder = new TextEncoder();
    let body: ReadableStreamDefaultController<Uint8Array> | undefined;
    // A server that writes one piece every 200 ms: 1.2 s in all, past the 1 s limit.
    const slowWriter: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => {
            body = controller;
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const model = createOpenAICompatibleModel({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'test-model',
      timeoutMs: 1_000,
      fetch: slowWriter,
    });
    const pieces = ['a', 'b', 'c', 'd', 'e'];
    const running = run(model);
    for (let turn = 0; turn < 1_000 && body === undefined; turn++)
      await vi.advanceTimersByTimeAsync(0);
    for (const part of textChunks(...pieces)) {
      await vi.advanceTimersByTimeAsync(200);
      body?.enqueue(encoder.encode(`data: ${JSON.stringify(part)}\n\n`));
    }
    body?.enqueue(encoder.encode('data: [DONE]\n\n'));
    body?.close();
    const { events, error } = await running;
    expect(error).toBeUndefined();
    expect(
      events.filter((event) => event.type === 'text-delta').map((event) => event.text),
    ).toEqual(pieces);
    expect(retriesOf(events)).toEqual([]);
  });

  it('by default gives up on an unresponsive server after 60 s in all, three attempts of 20 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    let fetches = 0;
    // A server that takes every request and never answers; it lets go when told to.
    const neverAnswers: typeof fetch = (_input, init) => {
      fetches++;
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      });
    };
    const model = createOpenAICompatibleModel({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'test-model',
      fetch: neverAnswers,
    });
    const events: ModelEvent[] = [];
    let failure: unknown;
    const done = (async () => {
      try {
        for await (const event of model.stream(request())) events.push(event);
      } catch (error) {
        failure = error;
      }
    })();
    for (const attempt of [1, 2, 3]) {
      await vi.waitFor(() => expect(fetches).toBe(attempt));
      expect(failure).toBeUndefined();
      await vi.advanceTimersByTimeAsync(20_000);
    }
    await done;
    expect(retriesOf(events).map((event) => [event.attempt, event.delayMs])).toEqual([
      [2, 0],
      [3, 0],
    ]);
    expect(isModelError(failure, 'MODEL_TIMEOUT')).toBe(true);
    expect((failure as ModelError).message).toBe(
      'The model server at http://127.0.0.1:9/v1 sent nothing for 20 s; 3 attempts, 60 s in all. It may be down or overloaded: try again later, or allow it more time.',
    );
  });
});
