import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/loop/agent-event.js';
import { createAgent } from '../../src/loop/create-agent.js';
import { DEEPSEEK_MODEL, DEEPSEEK_MODELS } from '../../src/models/deepseek.js';
import { isModelError } from '../../src/models/model-error.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible-model.js';
import { openSessionStore } from '../../src/session/session-store.js';
import {
  REASONING_NOT_PASSED_BACK,
  removeTemporaryStateFolders,
  STAND_IN_QUESTION,
  temporaryStateFolder,
} from '../../src/testing.js';
import {
  closeStandIns,
  collectModel,
  deepSeekAgent,
  standIn,
} from '../support/deepseek-stand-ins.js';
import { collect, expectValidConversation, textOf } from '../support/harness.js';

afterEach(async () => {
  await closeStandIns();
  removeTemporaryStateFolders();
});

function reasoningOf(events: readonly AgentEvent[]): string {
  return events.map((event) => (event.type === 'reasoning' ? event.text : '')).join('');
}

describe('DeepSeek, as its API documents it today', () => {
  it('defaults to deepseek-flash, one of the current models', () => {
    expect(DEEPSEEK_MODEL).toBe('deepseek-flash');
    expect(DEEPSEEK_MODELS).toEqual(['deepseek-flash', 'deepseek-v4-pro']);
  });

  it('completes a turn with a question in thinking mode, passing the reasoning back verbatim', async () => {
    const server = await standIn();
    const { agent, provider } = deepSeekAgent(server);
    const events = await collect(agent.run('Paint the fence'));
    expect(events.at(-1)).toEqual({ type: 'turn-end', reason: 'finished' });
    expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
    expect(provider.requests[0]?.question).toBe(STAND_IN_QUESTION.question);
    expect(textOf(events)).toBe('Let me ask first.Painting the fence Blue.');
    // Reasoning streams first, as its own events, and is not part of the text.
    expect(events[0]?.type).toBe('reasoning');
    expect(reasoningOf(events)).toContain('I need the colour');
    const firstReasoning = 'The person wants a fence painted. I need the colour. I will ask.';
    const sent = server.requests[1]?.body.messages as Record<string, unknown>[];
    const withCalls = sent.find((message) => Array.isArray(message.tool_calls));
    expect(withCalls?.reasoning_content).toBe(firstReasoning);
    // The conversation keeps it, with the field it came in.
    const assistant = agent.messages.find(
      (message) => message.role === 'assistant' && message.toolCalls !== undefined,
    );
    expect(assistant).toMatchObject({
      reasoning: { text: firstReasoning, field: 'reasoning_content' },
    });
    expectValidConversation(agent.messages);
  });

  it('keeps passing it back in every later turn of the conversation', async () => {
    const server = await standIn();
    const { agent } = deepSeekAgent(server, {}, [{ label: 'Blue' }, { label: 'Red' }]);
    await collect(agent.run('Paint the fence'));
    const second = await collect(agent.run('And the gate?'));
    expect(second.at(-1)).toEqual({ type: 'turn-end', reason: 'finished' });
    expect(server.requests.map((request) => request.refusal)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const last = server.requests[3]?.body.messages as Record<string, unknown>[];
    const withCalls = last.filter((message) => Array.isArray(message.tool_calls));
    expect(withCalls).toHaveLength(2);
    for (const message of withCalls) expect(typeof message.reasoning_content).toBe('string');
    // Reasoning of a message without tool calls may be dropped: it is not sent.
    const plain = last.filter(
      (message) => message.role === 'assistant' && !Array.isArray(message.tool_calls),
    );
    expect(plain.length).toBeGreaterThan(0);
    for (const message of plain) expect(message).not.toHaveProperty('reasoning_content');
  });

  it('goes on with a conversation restored from a session store, the reasoning passed back as received', async () => {
    const server = await standIn();
    const store = openSessionStore({ dir: temporaryStateFolder() });
    const session = store.create({ cwd: '/' });
    const interaction = createUserInteraction();
    interaction.registerProvider(
      createScriptedProvider({ answers: [{ label: 'Blue' }, { label: 'Red' }] }),
    );
    const model = createOpenAICompatibleModel({
      baseURL: server.url,
      apiKey: server.apiKey,
      model: DEEPSEEK_MODEL,
      maxRetries: 0,
    });
    const first = createAgent({ model, interaction, recorder: session.recorder });
    await collect(first.run('Paint the fence'));
    await session.close();

    const restored = await store.open(session.id);
    const again = createAgent({
      model,
      interaction,
      conversation: restored.entries,
      recorder: restored.recorder,
    });
    const events = await collect(again.run('And the gate?'));
    await restored.close();
    expect(events.at(-1)).toEqual({ type: 'turn-end', reason: 'finished' });
    expect(server.requests.map((request) => request.refusal)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    // The restored conversation went out as the live one would have: the same messages.
    const live = server.requests[1]?.body.messages as unknown[];
    const resumed = server.requests[2]?.body.messages as unknown[];
    expect(resumed.slice(0, live.length + 1)).toEqual([
      ...live,
      expect.objectContaining({ role: 'assistant', content: 'Painting the fence Blue.' }),
    ]);
  });

  it('is refused by the stand-in, as by DeepSeek, when the reasoning is not passed back', async () => {
    const server = await standIn();
    const model = createOpenAICompatibleModel({
      baseURL: server.url,
      apiKey: server.apiKey,
      maxRetries: 0,
    });
    const messages = [
      { role: 'user', content: 'Paint the fence' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'ask_user_question', arguments: '{"question":"Q?"}' }],
      },
      { role: 'tool', toolCallId: 'call_1', content: 'Blue' },
    ] as const;
    const failure = await collectModel(model, messages).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isModelError(failure, 'MODEL_REQUEST_REJECTED')).toBe(true);
    expect((failure as Error).message).toContain(REASONING_NOT_PASSED_BACK);
  });

  it('turns thinking off on request: no reasoning comes, and none goes back', async () => {
    const server = await standIn();
    const { agent } = deepSeekAgent(server, { thinking: 'off' });
    const events = await collect(agent.run('Paint the fence'));
    expect(events.at(-1)).toEqual({ type: 'turn-end', reason: 'finished' });
    expect(events.some((event) => event.type === 'reasoning')).toBe(false);
    for (const request of server.requests) {
      expect(request.status).toBe(200);
      expect(request.body.thinking).toEqual({ type: 'disabled' });
      expect(request.body).not.toHaveProperty('reasoning_effort');
      expect(JSON.stringify(request.body.messages)).not.toContain('reasoning');
    }
  });
});
