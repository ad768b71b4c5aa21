import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import { textChunks } from '../../src/testing.js';
import { closeServers, serve } from '../support/chat-servers.js';
import { eventsOf, modelFor } from '../support/openai-model-requests.js';

afterEach(async () => {
  await closeServers();
  vi.unstubAllEnvs();
});

describe('the OpenAI-compatible model', () => {
  it('sends a placeholder key to a server given none, and never the DeepSeek key', async () => {
    vi.stubEnv('DEEPSEEK_API_KEY', 'sk-deepseek-secret');
    vi.stubEnv('OPENAI_ORG_ID', 'org-should-not-leak');
    vi.stubEnv('OPENAI_API_KEY', 'sk-openai-secret');
    const server = await serve({ chunks: textChunks('local') });
    await eventsOf(createOpenAICompatibleModel({ baseURL: server.url, model: 'llama3.2' }));
    const headers = server.requests[0]?.headers ?? {};
    expect(headers.authorization).toBe('Bearer no-key');
    expect(JSON.stringify(headers)).not.toMatch(/secret|org-should-not-leak/);
    expect(server.requests[0]?.body.model).toBe('llama3.2');
  });

  it('needs a key for DeepSeek, and takes it from DEEPSEEK_API_KEY', () => {
    vi.stubEnv('DEEPSEEK_API_KEY', '');
    expect(() => createOpenAICompatibleModel()).toThrow(
      expect.objectContaining({
        code: 'MODEL_AUTH',
        message: expect.stringContaining('DEEPSEEK_API_KEY'),
      }),
    );
    vi.stubEnv('DEEPSEEK_API_KEY', 'sk-deepseek');
    expect(createOpenAICompatibleModel().id).toBe('deepseek-flash');
    expect(createOpenAICompatibleModel({ model: 'deepseek-reasoner' }).id).toBe(
      'deepseek-reasoner',
    );
  });

  it('rejects a base URL that is not http(s), as every option of the package: a TypeError', () => {
    expect(() => createOpenAICompatibleModel({ baseURL: 'localhost:11434' })).toThrow(TypeError);
    expect(() => createOpenAICompatibleModel({ baseURL: 'localhost:11434' })).toThrow(
      /"localhost:11434" is not an http\(s\) URL/,
    );
  });

  it('uses the given fetch and headers', async () => {
    const server = await serve({ chunks: textChunks('ok') });
    const fetchSpy = vi.fn((input: string | URL | Request, init?: RequestInit) =>
      fetch(input, init),
    );
    await eventsOf(modelFor(server.url, { fetch: fetchSpy, headers: { 'x-title': 'dsh' } }));
    expect(fetchSpy).toHaveBeenCalledOnce();
    expect(server.requests[0]?.headers['x-title']).toBe('dsh');
  });
});
