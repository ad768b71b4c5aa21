import type { Model, ModelEvent } from 'dsh-agent';
import { createScriptedModel, ModelError } from 'dsh-agent';
import { recordingModel } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import {
  createTestClient,
  prompt,
  startSession,
  WITH_FORMS,
  withServer,
} from '../../src/testing.js';
import { rejectionOf } from '../support/rejection-of.js';

function failingModel(error: unknown): Model {
  return {
    id: 'failing',
    // biome-ignore lint/correctness/useYield: it fails before its first event, as a refused request does.
    async *stream(): AsyncGenerator<ModelEvent> {
      throw error;
    },
  };
}

/** A model that, at every turn, asks with the same tool call id (as some local servers do). */
function sameIdModel(): Model {
  return {
    id: 'same-id',
    async *stream({ messages }) {
      if (messages.at(-1)?.role === 'tool') {
        yield { type: 'text-delta', text: 'Thanks.' };
        yield { type: 'finish', reason: 'stop' };
        return;
      }
      const call = { id: 'call_0', name: 'ask_user_question', arguments: '{"question":"Again?"}' };
      yield { type: 'tool-call', call };
      yield { type: 'finish', reason: 'tool-calls' };
    },
  };
}

describe('how a turn ends', () => {
  it('a model failure is a JSON-RPC error (-32603) with the model error message and its code; the session goes on', async () => {
    const message = 'DeepSeek refused the API key (HTTP 401): check DEEPSEEK_API_KEY.';
    const model = failingModel(new ModelError(message, 'MODEL_AUTH', { status: 401 }));
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      const error = await rejectionOf(prompt(agent, sessionId, 'Hi.'));
      expect(error).toMatchObject({
        code: -32603,
        message,
        data: { code: 'MODEL_AUTH', name: 'ModelError' },
      });
      // Not busy: the next prompt runs (and fails the same way).
      expect(await rejectionOf(prompt(agent, sessionId, 'Hi again.'))).toMatchObject({
        data: { code: 'MODEL_AUTH' },
      });
    });
  });

  it('an unexpected failure never sends its text to the client', async () => {
    const model = failingModel(new Error('ENOENT /home/someone/.secret'));
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent, pipe }) => {
      const sessionId = await startSession(agent);
      const error = await rejectionOf(prompt(agent, sessionId, 'Hi.'));
      expect(error).toMatchObject({ code: -32603, data: { code: 'INTERNAL_ERROR' } });
      expect(JSON.stringify(pipe.wire.messages)).not.toContain('.secret');
    });
  });

  it('the step limit ends the turn with max_turn_requests', async () => {
    const model = createScriptedModel({
      steps: [
        { text: 'Trying a tool.', toolCalls: [{ id: 'a', name: 'no_such_tool' }] },
        { text: 'Trying again.', toolCalls: [{ id: 'b', name: 'no_such_tool' }] },
        { text: 'Done.' },
      ],
    });
    const testClient = createTestClient();
    await withServer({ model, maxSteps: 2 }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      expect(await prompt(agent, sessionId, 'Hi.')).toEqual({ stopReason: 'max_turn_requests' });
      expect(testClient.updates.toolCallUpdates(sessionId)).toEqual([
        expect.objectContaining({ toolCallId: 'a', status: 'failed' }),
        expect.objectContaining({ toolCallId: 'b', status: 'failed' }),
      ]);
      expect(testClient.updates.resultText(sessionId, 'a')).toMatch(/\(UNKNOWN_TOOL\)$/);
      // The next prompt lets it continue.
      expect(await prompt(agent, sessionId, 'Go on.')).toEqual({ stopReason: 'end_turn' });
      expect(testClient.updates.text(sessionId)).toMatch(/Done\.$/);
    });
  });

  it('gives every tool call of a session its own ACP id, even when the model reuses one', async () => {
    const testClient = createTestClient();
    await withServer({ model: sameIdModel() }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      for (const [turn, toolCallId] of [
        [1, 'call_0'],
        [2, 'call_0#2'],
        [3, 'call_0#3'],
      ] as const) {
        const response = prompt(agent, sessionId, `Turn ${turn}.`);
        const form = await testClient.forms.next();
        expect(form.params).toMatchObject({ sessionId, toolCallId });
        form.reply({ action: 'accept', content: { text: `answer ${turn}` } });
        expect(await response).toEqual({ stopReason: 'end_turn' });
        expect(testClient.updates.toolCalls(sessionId).at(-1)?.toolCallId).toBe(toolCallId);
        expect(testClient.updates.resultText(sessionId, toolCallId)).toBe(`answer ${turn}`);
      }
    });
  });
});

describe('prompt content', () => {
  it('passes text, resource links and embedded text resources to the model as text', async () => {
    const model = recordingModel(createScriptedModel({ steps: [{ text: 'Read it.' }] }));
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      const response = await agent.request('session/prompt', {
        sessionId,
        prompt: [
          { type: 'text', text: 'Look at these:' },
          { type: 'resource_link', name: 'main.ts', uri: 'file:///work/main.ts' },
          {
            type: 'resource',
            resource: { uri: 'file:///work/notes.md', mimeType: 'text/markdown', text: '# Notes' },
          },
          { type: 'resource', resource: { uri: 'file:///work/logo.png', blob: 'iVBORw0KGgo=' } },
        ],
      });
      expect(response).toEqual({ stopReason: 'end_turn' });
      expect(model.requests[0]?.messages.at(-1)).toEqual({
        role: 'user',
        content: [
          'Look at these:',
          '[main.ts](file:///work/main.ts)',
          '<context uri="file:///work/notes.md">\n# Notes\n</context>',
          '<context uri="file:///work/logo.png">(binary content, not included)</context>',
        ].join('\n\n'),
      });
    });
  });

  it.each([
    ['image', { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
    ['audio', { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }],
  ] as const)('rejects %s content with invalid params, and keeps serving', async (kind, block) => {
    const model = recordingModel(createScriptedModel({ steps: [{ text: 'Hello.' }] }));
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      const error = await rejectionOf(
        agent.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: 'See:' }, block],
        }),
      );
      expect(error).toMatchObject({
        code: -32602,
        message: expect.stringContaining(`does not advertise ${kind} content`),
        data: { contentType: kind },
      });
      expect(model.requests).toHaveLength(0);
      expect(await prompt(agent, sessionId, 'Hi.')).toEqual({ stopReason: 'end_turn' });
    });
  });

  it('rejects a prompt with no text', async () => {
    const model = createScriptedModel({ steps: [{ text: 'Hello.' }] });
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      for (const blocks of [[], [{ type: 'text' as const, text: '  \n' }]]) {
        const error = await rejectionOf(
          agent.request('session/prompt', { sessionId, prompt: blocks }),
        );
        expect(error).toMatchObject({
          code: -32602,
          message: 'Invalid params: the prompt has no text',
        });
      }
    });
  });
});

describe('a retry of the model request', () => {
  /** A model whose request is retried once before it answers. */
  function retriedModel(): Model {
    return {
      id: 'retried',
      async *stream() {
        yield {
          type: 'retry',
          attempt: 2,
          attempts: 3,
          delayMs: 2_000,
          error: {
            name: 'ModelError',
            code: 'MODEL_UNAVAILABLE',
            message: 'The model server at http://127.0.0.1:8080/v1 failed (HTTP 503: busy).',
          },
        };
        yield { type: 'text-delta', text: 'Back.' };
        yield { type: 'finish', reason: 'stop' };
      },
    };
  }

  it('is a notice to a client that takes notices, and never part of the answer', async () => {
    const testClient = createTestClient();
    await withServer({ model: retriedModel() }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent, { ...WITH_FORMS, session: { notices: {} } });
      expect(await prompt(agent, sessionId, 'Hi.')).toMatchObject({ stopReason: 'end_turn' });
      expect(testClient.updates.of(sessionId).all).toEqual([
        {
          sessionUpdate: 'notice',
          severity: 'warning',
          title: 'Retrying in 2 s, attempt 2 of 3',
          description: 'The model server at http://127.0.0.1:8080/v1 failed (HTTP 503: busy).',
        },
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Back.' } },
      ]);
    });
  });

  it('sends nothing to a client that did not advertise notices', async () => {
    for (const capabilities of [WITH_FORMS, { session: { notices: null } }, { session: {} }]) {
      const testClient = createTestClient();
      await withServer({ model: retriedModel() }, testClient, async ({ agent }) => {
        const sessionId = await startSession(agent, capabilities);
        expect(await prompt(agent, sessionId, 'Hi.')).toMatchObject({ stopReason: 'end_turn' });
        expect(testClient.updates.of(sessionId).all).toEqual([
          { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Back.' } },
        ]);
      });
    }
  });
});
