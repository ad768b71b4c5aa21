import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelEvent } from '../../src/models/model.js';
import { retryAfterMs } from '../../src/models/retry-policy.js';
import { type ChatReply, closedPort, textChunks } from '../../src/testing.js';
import { closeServers, serve } from '../support/chat-servers.js';
import { modelFor, request, retriesOf, run } from '../support/retry-runs.js';

afterEach(async () => {
  vi.useRealTimers();
  await closeServers();
});

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
