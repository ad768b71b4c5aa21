import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it, vi } from 'vitest';
import { closedPort } from '../../src/testing.js';

const loads = vi.hoisted(() => ({ count: 0 }));

vi.mock('openai', async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

describe('the openai package', () => {
  it('is loaded on the first request to an OpenAI-compatible model, not before', async () => {
    const { createAgent, createOpenAICompatibleModel } = await import('../../src/index.js');
    const { resolveModel } = await import('../../src/command-line.js');
    const demo = await resolveModel({ env: {} });
    const agent = createAgent({ model: demo.model, interaction: createUserInteraction() });
    for await (const event of agent.run('hello')) {
      if (event.type === 'tool-call') break;
    }
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const model = createOpenAICompatibleModel({ baseURL: url, maxRetries: 0 });
    expect(loads.count).toBe(0);

    const stream = model.stream({ messages: [], tools: [], signal: AbortSignal.timeout(5_000) });
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      code: 'MODEL_CONNECTION',
    });
    expect(loads.count).toBe(1);
  });
});
