import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_DESCRIPTION, resolveModel } from '../../src/command-line/resolve-model.js';
import { isModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import { startChatServer, textChunks } from '../../src/testing.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'dsh-agent-resolve-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isModelError(error)).toBe(true);
  return (error as { code?: string }).code;
}

describe('resolveModel', () => {
  it('takes undefined options as not given (flags a person passes on, possibly missing)', async () => {
    // Under exactOptionalPropertyTypes (tsc --init's default) this must compile, and mean the same.
    const flags: { model?: string; baseUrl?: string; script?: string } = {};
    const resolved = await resolveModel({
      model: flags.model,
      baseUrl: flags.baseUrl,
      script: flags.script,
      apiKey: undefined,
      thinking: undefined,
      requestTimeoutMs: undefined,
      maxRetries: undefined,
      env: {},
    });
    expect(resolved.kind).toBe('demo');
    expect(resolved.description).toBe(DEMO_DESCRIPTION);
    const model = createOpenAICompatibleModel({
      baseURL: undefined,
      model: undefined,
      apiKey: 'sk-test',
      apiKeySource: undefined,
      thinking: undefined,
      maxRetries: undefined,
      timeoutMs: undefined,
      retryDelayMs: undefined,
      finishWaitMs: undefined,
      headers: undefined,
      fetch: undefined,
    });
    expect(model.id).toBe('deepseek-flash');
  });

  it("gives the model server's time limit and retries to the OpenAI-compatible model", async () => {
    // The time limit runs on a fake clock, moved on only once the server holds each request: on
    // a busy machine, 100 real milliseconds can pass before the server has even read it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    const server = await startChatServer([{ stall: true }, { stall: true }]);
    try {
      const { model } = await resolveModel({
        baseUrl: server.url,
        requestTimeoutMs: 100,
        maxRetries: 1,
        env: {},
      });
      const events: string[] = [];
      const streamed = (async () => {
        const request = { messages: [], tools: [], signal: new AbortController().signal };
        for await (const event of model.stream(request)) events.push(event.type);
      })().then(
        () => undefined,
        (error: unknown) => error,
      );
      await server.request(0);
      await vi.advanceTimersByTimeAsync(99);
      expect(events).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(events).toEqual(['retry']));
      // After a silence the retry is at once: a pause of 0 ms, on the fake clock too.
      await vi.advanceTimersByTimeAsync(0);
      await server.request(1);
      await vi.advanceTimersByTimeAsync(100);
      const failure = await streamed;
      expect(events).toEqual(['retry']);
      expect(isModelError(failure, 'MODEL_TIMEOUT')).toBe(true);
      expect((failure as Error).message).toContain('sent nothing for 100 ms; 2 attempts');
      expect(server.requests).toHaveLength(2);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });

  it('runs the built-in demo when nothing is configured', async () => {
    const resolved = await resolveModel({ env: {} });
    expect(resolved.kind).toBe('demo');
    expect(resolved.model.id).toBe('scripted:demo');
    expect(resolved.description).toBe(DEMO_DESCRIPTION);
    expect(resolved.description).toContain('DEEPSEEK_API_KEY');
    expect(resolved.description).not.toContain('\n');
    // Blank values count as unset.
    expect(
      (await resolveModel({ env: { DEEPSEEK_API_KEY: ' ', DSH_API_KEY: '' }, baseUrl: '' })).kind,
    ).toBe('demo');
  });

  it('replays a script file given with --script, even when a key is set', async () => {
    const path = join(folder, 'mine.json');
    await writeFile(path, JSON.stringify({ steps: [{ text: 'from file' }] }));
    const resolved = await resolveModel({ script: path, env: { DEEPSEEK_API_KEY: 'sk-x' } });
    expect(resolved.kind).toBe('script');
    expect(resolved.model.id).toBe('scripted:mine.json');
    expect(resolved.description).toBe(`script ${path} (offline, scripted)`);
    expect(await codeOf(resolveModel({ script: join(folder, 'nope.json'), env: {} }))).toBe(
      'SCRIPT_INVALID',
    );
  });

  it('uses DeepSeek when DEEPSEEK_API_KEY is set, without showing the key', async () => {
    const resolved = await resolveModel({ env: { DEEPSEEK_API_KEY: 'sk-deep-secret' } });
    expect(resolved.kind).toBe('openai-compatible');
    expect(resolved.model.id).toBe('deepseek-flash');
    expect(resolved.description).toBe(
      'deepseek-flash at https://api.deepseek.com (key from DEEPSEEK_API_KEY)',
    );
    const other = await resolveModel({
      model: 'deepseek-reasoner',
      env: { DSH_API_KEY: 'sk-generic-secret' },
    });
    expect(other.description).toBe(
      'deepseek-reasoner at https://api.deepseek.com (key from DSH_API_KEY)',
    );
    expect(JSON.stringify([resolved, other])).not.toContain('secret');
  });

  it('uses the server of --base-url, with DSH_API_KEY or no key but never the DeepSeek key', async () => {
    const server = await startChatServer([
      { chunks: textChunks('hi') },
      { chunks: textChunks('hi') },
    ]);
    try {
      const local = await resolveModel({
        baseUrl: server.url,
        model: 'qwen3',
        env: { DEEPSEEK_API_KEY: 'sk-deep-secret' },
      });
      expect(local.kind).toBe('openai-compatible');
      expect(local.description).toBe(`qwen3 at ${server.url} (no API key)`);
      for await (const _ of local.model.stream({
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        signal: new AbortController().signal,
      })) {
        // drain
      }
      expect(server.requests[0]?.headers.authorization).toBe('Bearer no-key');
      expect(server.requests[0]?.body.model).toBe('qwen3');

      const keyed = await resolveModel({ baseUrl: server.url, env: { DSH_API_KEY: 'sk-generic' } });
      expect(keyed.description).toBe(`deepseek-flash at ${server.url} (key from DSH_API_KEY)`);
      const explicit = await resolveModel({ baseUrl: server.url, apiKey: 'sk-flag', env: {} });
      for await (const _ of explicit.model.stream({
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        signal: new AbortController().signal,
      })) {
        // drain
      }
      expect(server.requests[1]?.headers.authorization).toBe('Bearer sk-flag');
      expect(explicit.description).toContain('(API key given)');
    } finally {
      await server.close();
    }
  });

  it('refuses --model without a server, and a base URL that is not one', async () => {
    expect(await codeOf(resolveModel({ model: 'deepseek-chat', env: {} }))).toBe(
      'MODEL_OPTIONS_INVALID',
    );
    expect(await codeOf(resolveModel({ baseUrl: 'not a url', env: {} }))).toBe(
      'MODEL_OPTIONS_INVALID',
    );
  });
});
