import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import {
  createScriptedModel,
  DEMO_SCRIPT,
  type ModelRequest,
  openSessionStore,
  type SessionStore,
} from 'dsh-agent';
import {
  recordingModel,
  removeTemporaryStateFolders,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { AcpAgentServerOptions } from '../../src/server.js';
import {
  createTestClient,
  initializeClient,
  prompt,
  startSession,
  type TestClient,
  withServer,
} from '../../src/testing.js';
import { rejectionOf } from '../support/rejection-of.js';

afterEach(removeTemporaryStateFolders);

/** The demo on a store; `requests` records what the model receives. */
function demo(sessionStore: SessionStore): AcpAgentServerOptions & { requests: ModelRequest[] } {
  const model = recordingModel(createScriptedModel(DEMO_SCRIPT, { name: 'demo' }));
  return { model, sessionStore, requests: model.requests };
}

/** Answers the demo's asks: a choice, a name, three questions in one form, a choice. */
async function answerDemo(testClient: TestClient, name: string): Promise<void> {
  const replies = [
    { action: 'accept', content: { choice: 'TypeScript' } },
    { action: 'accept', content: { text: name } },
    {
      action: 'accept',
      content: {
        database: 'SQLite',
        features: ['API docs'],
        'features:custom': 'audit log',
        license: 'MIT',
      },
    },
    { action: 'accept', content: { choice: 'containers' } },
  ] as const;
  for (const reply of replies) (await testClient.forms.next()).reply(reply);
}

/** A compact view of updates: kind, and what each says. */
function summary(updates: readonly SessionUpdate[]): string[] {
  return updates.map((update) => {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
        return `${update.sessionUpdate}:${update.content.type === 'text' ? update.content.text.slice(0, 20) : ''}`;
      case 'tool_call':
        return `tool_call:${update.toolCallId}:${update.title}`;
      case 'tool_call_update':
        return `tool_call_update:${update.toolCallId}:${update.status}`;
      default:
        return update.sessionUpdate;
    }
  });
}

describe('saved sessions', () => {
  it('advertises session/load and session/list with a store, and neither without one', async () => {
    const testClient = createTestClient();
    const sessionStore = openSessionStore({ dir: temporaryStateFolder() });
    await withServer(demo(sessionStore), testClient, async ({ agent }) => {
      const { agentCapabilities } = await initializeClient(agent);
      expect(agentCapabilities).toMatchObject({
        loadSession: true,
        sessionCapabilities: { close: {}, list: {} },
      });
    });
    await withServer({ model: createScriptedModel(DEMO_SCRIPT) }, testClient, async ({ agent }) => {
      const { agentCapabilities } = await initializeClient(agent);
      expect(agentCapabilities?.loadSession).toBe(false);
      expect(agentCapabilities?.sessionCapabilities).toEqual({ close: {} });
      for (const method of [methods.agent.session.list, methods.agent.session.load]) {
        expect(
          await rejectionOf(agent.request(method, { sessionId: 'x', cwd: '/', mcpServers: [] })),
        ).toMatchObject({ code: -32601 });
      }
    });
  });

  it('survives a restart: listed with its title, replayed before the load response, then the model gets the whole conversation', async () => {
    const dir = temporaryStateFolder();
    const first = createTestClient();
    let sessionId = '';
    await withServer(demo(openSessionStore({ dir })), first, async ({ agent }) => {
      sessionId = await startSession(agent);
      const turn = prompt(agent, sessionId, 'Plan a web service\nfor the shop');
      await answerDemo(first, 'shop');
      expect(await turn).toEqual({ stopReason: 'end_turn' });
    });

    const second = createTestClient();
    const restarted = demo(openSessionStore({ dir }));
    await withServer(restarted, second, async ({ agent, pipe }) => {
      await initializeClient(agent);
      const listed = await agent.request(methods.agent.session.list, { cwd: '/' });
      expect(listed).toEqual({
        sessions: [
          {
            sessionId,
            cwd: '/',
            title: 'Plan a web service',
            updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
          },
        ],
      });
      expect(
        (await agent.request(methods.agent.session.list, { cwd: '/elsewhere' })).sessions,
      ).toEqual([]);

      expect(
        await agent.request(methods.agent.session.load, { sessionId, cwd: '/', mcpServers: [] }),
      ).toEqual({});
      const replayed = second.updates.of(sessionId).all;
      expect(summary(replayed)).toEqual([
        'user_message_chunk:Plan a web service\nf',
        'agent_message_chunk:Hi! I am the dsh dem',
        'tool_call:language:Which language should the new service be written in?',
        'tool_call_update:language:completed',
        'agent_message_chunk:Noted: TypeScript. T',
        'tool_call:name:What should the project be called?',
        'tool_call_update:name:completed',
        'agent_message_chunk:Next, three question',
        'tool_call:stack:The stack',
        'tool_call_update:stack:completed',
        'agent_message_chunk:Last question: this ',
        'tool_call:hosting:Where will shop run?',
        'tool_call_update:hosting:completed',
        'agent_message_chunk:Here is the plan:\n\n-',
      ]);
      expect(second.updates.resultText(sessionId, 'name')).toBe('shop');
      expect(replayed[3]).toMatchObject({ rawOutput: { option: { label: 'TypeScript' } } });
      // Every replayed update reached the client before the load response.
      const messages = pipe.wire.messages.map((entry) => entry.message);
      const response = messages.findIndex(
        (message) =>
          'result' in message && 'id' in message && JSON.stringify(message.result) === '{}',
      );
      const lastUpdate = messages.findLastIndex(
        (message) => 'method' in message && message.method === methods.client.session.update,
      );
      expect(lastUpdate).toBeLessThan(response);

      // The demo goes on with its second part (this server has no workspace tools, so its
      // calls fail at once); the model got the whole conversation first.
      const turn = prompt(agent, sessionId, 'Once more.');
      expect(await turn).toEqual({ stopReason: 'end_turn' });
      const sent = restarted.requests[0]?.messages ?? [];
      expect(
        sent.filter((message) => message.role === 'user').map((message) => message.content),
      ).toEqual(['Plan a web service\nfor the shop', 'Once more.']);
      expect(
        sent.filter((message) => message.role === 'tool').map((message) => message.content),
      ).toEqual([
        'TypeScript',
        'shop',
        JSON.stringify({
          database: { chosen: ['SQLite'] },
          features: { chosen: ['API docs'], typed: 'audit log' },
          license: { chosen: ['MIT'] },
        }),
        'containers',
      ]);
    });
  });
});
