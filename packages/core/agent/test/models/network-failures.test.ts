import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveModel } from '../../src/command-line/resolve-model.js';
import type { ModelEvent } from '../../src/models/model.js';
import { isModelError, type ModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import type { OpenAICompatibleModelOptions } from '../../src/models/openai-compatible-model-options.js';
import { closedPort } from '../../src/testing.js';
import { closeLater, closeServers } from '../support/chat-servers.js';

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeServers();
});

const options = { model: 'test-model', apiKey: 'sk-test', retryDelayMs: 1, maxRetries: 1 };

async function run(model: ReturnType<typeof createOpenAICompatibleModel>) {
  const events: ModelEvent[] = [];
  const signal = new AbortController().signal;
  try {
    for await (const event of model.stream({
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
      signal,
    })) {
      events.push(event);
    }
  } catch (error) {
    expect(isModelError(error, 'MODEL_CONNECTION'), String(error)).toBe(true);
    return {
      retries: events.filter((event) => event.type === 'retry'),
      error: error as ModelError,
    };
  }
  throw new Error('The request did not fail.');
}

/** A `fetch` failing as undici does when a name does not resolve, counting its calls. */
function unresolvable() {
  const calls = { count: 0 };
  const fetch: typeof globalThis.fetch = async () => {
    calls.count++;
    const cause = Object.assign(new Error('getaddrinfo ENOTFOUND api.deepseek.com'), {
      code: 'ENOTFOUND',
    });
    throw new TypeError('fetch failed', { cause });
  };
  return { calls, fetch };
}

/** A TCP server on loopback that does `onSocket` with each connection once a request arrives. */
async function rawServer(onRequest: (socket: import('node:net').Socket) => void): Promise<string> {
  const server: Server = createServer((socket) => socket.once('data', () => onRequest(socket)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeLater({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function model(extra: OpenAICompatibleModelOptions) {
  return createOpenAICompatibleModel({ ...options, ...extra });
}

describe('network failures say what failed and what to check', () => {
  it('a refused connection: names the port, blames the base URL given, and is retried', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const { retries, error } = await run(model({ baseURL: url }));
    expect(retries).toHaveLength(1);
    expect(error.message).toMatch(
      new RegExp(
        `^Cannot reach the model server at ${url.replace(/\./g, '\\.')} \\(connection refused: nothing accepts connections on 127\\.0\\.0\\.1 port ${port}\\); 2 attempts, \\d+ ms in all\\. Check that the server is running, and that the host and port of the base URL you gave are right\\.$`,
      ),
    );
  });

  it('a host that does not resolve, with the default DeepSeek URL: retried, and says no base URL was given', async () => {
    vi.stubEnv('DEEPSEEK_API_KEY', 'sk-from-env');
    const { calls, fetch } = unresolvable();
    const { retries, error } = await run(
      createOpenAICompatibleModel({ retryDelayMs: 1, maxRetries: 2, fetch }),
    );
    expect(calls.count).toBe(3);
    expect(retries).toHaveLength(2);
    expect(error.message).toMatch(
      /^Cannot reach the model server at https:\/\/api\.deepseek\.com \(host name api\.deepseek\.com not found: the DNS lookup failed, ENOTFOUND\); 3 attempts, \d+ ms in all\. It is DeepSeek's server, used by default because no base URL was given and DEEPSEEK_API_KEY is set\. Check this machine's network connection and DNS settings \(and proxy, if any\)\. To use another server, give its base URL \(--base-url\)\.$/,
    );
    expect(error.message).not.toContain('the base URL is right');
    expect(error.message).not.toContain('sk-from-env');
  });

  it('resolveModel says which variable the key came from', async () => {
    const { fetch } = unresolvable();
    vi.stubGlobal('fetch', fetch);
    try {
      const { model: resolved } = await resolveModel({
        env: { DSH_API_KEY: 'sk-generic' },
        maxRetries: 0,
      });
      const { error } = await run(resolved as ReturnType<typeof createOpenAICompatibleModel>);
      expect(error.message).toContain('no base URL was given and DSH_API_KEY is set.');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a host that does not resolve in a base URL given: names the host to check', async () => {
    const { fetch } = unresolvable();
    const { error } = await run(
      model({ baseURL: 'http://no-such-host.invalid/v1', fetch, maxRetries: 0 }),
    );
    expect(error.message).toContain(
      "Check the host name no-such-host.invalid in the base URL you gave, and this machine's network connection.",
    );
  });

  it('a connection the server resets', async () => {
    const url = await rawServer((socket) => socket.resetAndDestroy());
    const { retries, error } = await run(model({ baseURL: url }));
    expect(retries).toHaveLength(1);
    expect(error.message).toContain(
      `Cannot reach the model server at ${url} (connection reset, ECONNRESET)`,
    );
    expect(error.message).toContain('Check that the base URL you gave points to an HTTP server');
  });

  it('a connection the server closes before answering', async () => {
    const url = await rawServer((socket) => socket.destroy());
    const { error } = await run(model({ baseURL: url }));
    expect(error.message).toContain(
      `Cannot reach the model server at ${url} (the connection was closed before any answer)`,
    );
  });

  it('https to a server that speaks plain http: says to use http://, and is not retried', async () => {
    const plain = createHttpServer((_request, response) => response.end('{}'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    closeLater({ close: () => new Promise<void>((resolve) => plain.close(() => resolve())) });
    const port = (plain.address() as AddressInfo).port;
    const url = `https://127.0.0.1:${port}/v1`;
    const { retries, error } = await run(model({ baseURL: url }));
    expect(retries).toEqual([]);
    expect(error.message).toMatch(
      new RegExp(
        `^Cannot reach the model server at ${url.replace(/\./g, '\\.')} \\(TLS handshake failed: the server does not speak https on port ${port}, ERR_SSL_WRONG_VERSION_NUMBER\\)\\. The base URL you gave starts with https://, but the server answers without TLS: give it with http:// instead\\.$`,
      ),
    );
  });

  it('an error with no known code still says what it was', async () => {
    const fetch: typeof globalThis.fetch = async () => {
      throw new TypeError('fetch failed', {
        cause: new AggregateError([Object.assign(new Error('boom'), { code: 'EWHATEVER' })]),
      });
    };
    const { error } = await run(model({ baseURL: 'http://127.0.0.1:9/v1', fetch, maxRetries: 0 }));
    expect(error.message).toContain('(network error: EWHATEVER)');
  });

  it('finds a refusal inside an AggregateError (a name with several addresses)', async () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const fetch: typeof globalThis.fetch = async () => {
      throw new TypeError('fetch failed', {
        cause: new AggregateError([refused('::1:8080'), refused('127.0.0.1:8080')]),
      });
    };
    const { error } = await run(
      model({ baseURL: 'http://localhost:8080/v1', fetch, maxRetries: 0 }),
    );
    expect(error.message).toContain(
      '(connection refused: nothing accepts connections on localhost port 8080)',
    );
  });
});
