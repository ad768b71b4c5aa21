import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Model, ModelEvent, ModelRequest } from '../../src/models/model.js';
import { isModelError, type ModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from '../../src/models/openai-compatible-model-options.js';
import { retryAfterMs } from '../../src/models/retry-policy.js';
import { type ChatReply, chunk, closedPort, textChunks } from '../../src/testing.js';
import { closeServers, retryAfterSilence, serve } from '../support/chat-servers.js';

afterEach(async () => {
  vi.useRealTimers();
  await closeServers();
});

function modelFor(url: string, options: OpenAICompatibleModelOptions = {}): Model {
  return createOpenAICompatibleModel({
    baseURL: url,
    model: 'test-model',
    apiKey: 'sk-test',
    retryDelayMs: 1,
    ...options,
  });
}

function request(signal = new AbortController().signal): ModelRequest {
  return { messages: [{ role: 'user', content: 'hi' }], tools: [], signal };
}

/** The events a stream gave, and the error it failed with, if any. */
async function run(model: Model, modelRequest = request()) {
  const events: ModelEvent[] = [];
  try {
    for await (const event of model.stream(modelRequest)) events.push(event);
  } catch (error) {
    expect(isModelError(error), String(error)).toBe(true);
    return { events, error: error as ModelError };
  }
  return { events, error: undefined };
}

const retriesOf = (events: readonly ModelEvent[]) =>
  events.filter((event) => event.type === 'retry');

const busy = (status: number, headers: Record<string, string> = {}): ChatReply => ({
  status,
  headers: { 'retry-after-ms': '1', ...headers },
  body: '{"error":{"message":"busy"}}',
});

describe('retries of a failed model request', () => {
  it.each([408, 429, 500, 502, 503, 504])(
    'sends a request that got HTTP %i again, announcing it',
    async (status) => {
      const server = await serve(busy(status), { chunks: textChunks('ok') });
      const { events, error } = await run(modelFor(server.url));
      expect(error).toBeUndefined();
      expect(events[0]).toMatchObject({
        type: 'retry',
        attempt: 2,
        attempts: 3,
        delayMs: 1,
        error: { name: 'ModelError', message: expect.stringContaining(`(HTTP ${status}: busy).`) },
      });
      expect(events.slice(1)).toEqual([
        { type: 'text-delta', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ]);
      expect(server.requests).toHaveLength(2);
    },
  );

  it.each([
    [400, 'MODEL_REQUEST_REJECTED'],
    [401, 'MODEL_AUTH'],
    [403, 'MODEL_AUTH'],
    [404, 'MODEL_NOT_FOUND'],
    [422, 'MODEL_REQUEST_REJECTED'],
    [501, 'MODEL_UNAVAILABLE'],
  ])('never sends a request refused with HTTP %i again (%s)', async (status, code) => {
    const server = await serve(busy(status), { chunks: textChunks('never') });
    const { events, error } = await run(modelFor(server.url));
    expect(events).toEqual([]);
    expect(error?.code).toBe(code);
    expect(error?.message).not.toContain('attempts');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after the retries, saying how many attempts were made and how long they took', async () => {
    const server = await serve(busy(503), busy(503), busy(503), { chunks: textChunks('late') });
    const { events, error } = await run(modelFor(server.url));
    expect(retriesOf(events).map((event) => [event.attempt, event.attempts])).toEqual([
      [2, 3],
      [3, 3],
    ]);
    expect(error?.code).toBe('MODEL_UNAVAILABLE');
    expect(error?.status).toBe(503);
    expect(error?.message).toMatch(
      new RegExp(
        `^The model server at ${server.url.replace(/[.]/g, '\\.')} failed \\(HTTP 503: busy\\); 3 attempts, \\d+ ms in all\\. It may be down or overloaded: try again in a moment\\.$`,
      ),
    );
    expect(server.requests).toHaveLength(3);
  });

  it('sends nothing again with maxRetries 0', async () => {
    const server = await serve(busy(503), { chunks: textChunks('never') });
    const { events, error } = await run(modelFor(server.url, { maxRetries: 0 }));
    expect(events).toEqual([]);
    expect(error?.message).toBe(
      `The model server at ${server.url} failed (HTTP 503: busy). It may be down or overloaded: try again in a moment.`,
    );
  });

  it('tries a server that cannot be reached again, with a pause that doubles', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const { events, error } = await run(modelFor(url, { retryDelayMs: 5 }));
    expect(retriesOf(events)).toEqual([
      {
        type: 'retry',
        attempt: 2,
        attempts: 3,
        delayMs: 5,
        error: {
          name: 'ModelError',
          code: 'MODEL_CONNECTION',
          message: `Cannot reach the model server at ${url} (connection refused: nothing accepts connections on 127.0.0.1 port ${port}).`,
        },
      },
      expect.objectContaining({ attempt: 3, delayMs: 10 }),
    ]);
    expect(error?.code).toBe('MODEL_CONNECTION');
    expect(error?.message).toMatch(/ port \d+\); 3 attempts, \d+ ms in all\. Check/);
  });

  it('tries a host that does not resolve again: DNS fails while a network comes up', async () => {
    let fetches = 0;
    // What undici gives for a name that does not resolve.
    const unknownHost: typeof fetch = async () => {
      fetches++;
      const cause = Object.assign(new Error('getaddrinfo ENOTFOUND no-such-host.invalid'), {
        code: 'ENOTFOUND',
      });
      throw new TypeError('fetch failed', { cause });
    };
    const { events, error } = await run(
      modelFor('http://no-such-host.invalid/v1', { fetch: unknownHost }),
    );
    expect(fetches).toBe(3);
    expect(retriesOf(events)).toHaveLength(2);
    expect(error?.message).toContain(
      '(host name no-such-host.invalid not found: the DNS lookup failed, ENOTFOUND); 3 attempts',
    );
  });

  it("waits as long as the server's Retry-After asks, in seconds or as a date", async () => {
    const date = new Date(Date.now() + 30_000).toUTCString();
    for (const [header, low, high] of [
      ['7', 7_000, 7_000],
      [date, 28_000, 30_000],
    ] as const) {
      const server = await serve(busy(429, { 'retry-after-ms': '', 'retry-after': header }));
      const controller = new AbortController();
      const events: ModelEvent[] = [];
      for await (const event of modelFor(server.url).stream(request(controller.signal))) {
        events.push(event);
        // Seen: nobody waits for it.
        controller.abort();
      }
      const [retry] = retriesOf(events);
      expect(retry?.delayMs).toBeGreaterThanOrEqual(low);
      expect(retry?.delayMs).toBeLessThanOrEqual(high);
      expect(server.requests).toHaveLength(1);
    }
  });

  it('fails at once when the server asks to wait longer than a minute, and says so', async () => {
    const server = await serve(busy(429, { 'retry-after-ms': '', 'retry-after': '120' }));
    const { events, error } = await run(modelFor(server.url));
    expect(events).toEqual([]);
    expect(error?.code).toBe('MODEL_RATE_LIMITED');
    expect(error?.message).toBe(
      `The model server at ${server.url} is limiting requests (HTTP 429: busy). It asks to wait 2 min before the next request, longer than the 60 s waited for on its own: wait, then send your message again.`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('reads Retry-After-Ms, Retry-After in seconds and as an HTTP date', () => {
    const headers = (values: Record<string, string>) => new Headers(values);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:09 GMT' }), now)).toBe(
      9_000,
    );
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-3' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  it('refuses retry options it cannot use, as TypeErrors', () => {
    for (const options of [
      { maxRetries: -1 },
      { maxRetries: 11 },
      { maxRetries: 1.5 },
      { timeoutMs: 0 },
      { timeoutMs: 2 ** 31 },
      { retryDelayMs: Number.NaN },
    ]) {
      expect(() => modelFor('http://localhost/v1', options), JSON.stringify(options)).toThrow(
        TypeError,
      );
    }
  });
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
