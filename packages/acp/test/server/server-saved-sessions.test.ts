import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { type ClientContext, methods, type SessionUpdate } from '@agentclientprotocol/sdk';
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
  sessionFilePath,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_LIST_PAGE_SIZE } from '../../src/server/session-list-page.js';
import type { AcpAgentServer, AcpAgentServerOptions } from '../../src/server.js';
import {
  createTestClient,
  initializeClient,
  newSession,
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

  /** A server saving to a fresh folder, whose model says "One." and then "Two.". */
  function oneTwoSaved() {
    return {
      model: createScriptedModel({ steps: [{ text: 'One.' }, { text: 'Two.' }] }),
      sessionStore: openSessionStore({ dir: temporaryStateFolder() }),
    };
  }

  /** `session/load` of a saved session, in `/`. */
  function loadSession(agent: ClientContext, sessionId: string) {
    return agent.request(methods.agent.session.load, { sessionId, cwd: '/', mcpServers: [] });
  }

  /** The session is closed: nothing is open on the server, and a prompt to it is -32002. */
  async function expectClosed(agent: ClientContext, server: AcpAgentServer, sessionId: string) {
    expect(server.sessions).toBe(0);
    expect(await rejectionOf(prompt(agent, sessionId, 'Still there?'))).toMatchObject({
      code: -32002,
      data: { sessionId },
    });
  }

  /** A new session that had one turn ("One.") and was closed. */
  async function closedAfterOneTurn(agent: ClientContext): Promise<string> {
    const sessionId = await startSession(agent);
    expect(await prompt(agent, sessionId, 'First.')).toEqual({ stopReason: 'end_turn' });
    await agent.request(methods.agent.session.close, { sessionId });
    return sessionId;
  }

  it('keeps the history at session/close: a prompt is -32002 until session/load reopens it', async () => {
    const testClient = createTestClient();
    await withServer(oneTwoSaved(), testClient, async ({ agent, server }) => {
      const sessionId = await closedAfterOneTurn(agent);
      await expectClosed(agent, server, sessionId);
      await loadSession(agent, sessionId);
      expect(await prompt(agent, sessionId, 'Second.')).toEqual({ stopReason: 'end_turn' });
      expect(testClient.updates.text(sessionId)).toBe('One.One.Two.');
      // Loading an open session tells it again from the file.
      await loadSession(agent, sessionId);
      expect(testClient.updates.text(sessionId)).toBe('One.One.Two.One.Two.');
    });
  });

  it('lets a session/close win over a session/load in progress: the load fails, the session stays closed', async () => {
    const testClient = createTestClient();
    await withServer(oneTwoSaved(), testClient, async ({ agent, server }) => {
      const sessionId = await closedAfterOneTurn(agent);
      // Sent together: the close arrives while the load opens and replays the session.
      const load = loadSession(agent, sessionId);
      const close = agent.request(methods.agent.session.close, { sessionId });
      const [loaded, closed] = await Promise.allSettled([load, close]);
      expect(closed).toEqual({ status: 'fulfilled', value: {} });
      expect(loaded).toMatchObject({
        status: 'rejected',
        reason: { code: -32800, data: { code: 'SESSION_CLOSED', sessionId } },
      });
      await expectClosed(agent, server, sessionId);
      // The close freed the session and its lock: a new load opens it.
      await loadSession(agent, sessionId);
      expect(await prompt(agent, sessionId, 'Second.')).toEqual({ stopReason: 'end_turn' });
    });
  });

  it('answers -32002 for a session that is not on disk, whatever the id', async () => {
    const testClient = createTestClient();
    const sessionStore = openSessionStore({ dir: temporaryStateFolder() });
    await withServer(
      { model: createScriptedModel(DEMO_SCRIPT), sessionStore },
      testClient,
      async ({ agent }) => {
        await initializeClient(agent);
        // A session never prompted has nothing saved.
        const empty = await newSession(agent);
        await agent.request(methods.agent.session.close, { sessionId: empty });
        for (const sessionId of [
          empty,
          '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b',
          '../../etc/passwd',
          'x'.repeat(10_000),
        ]) {
          expect(
            await rejectionOf(
              agent.request(methods.agent.session.load, { sessionId, cwd: '/', mcpServers: [] }),
            ),
          ).toMatchObject({ code: -32002, data: { sessionId } });
        }
        expect(
          await rejectionOf(
            agent.request(methods.agent.session.load, {
              sessionId: empty,
              cwd: 'relative',
              mcpServers: [],
            }),
          ),
        ).toMatchObject({ code: -32602 });
      },
    );
  });

  it('answers -32603 naming the file and line for a damaged session', async () => {
    const dir = temporaryStateFolder();
    const testClient = createTestClient();
    const options = {
      model: createScriptedModel({ steps: [{ text: 'One.' }] }),
      sessionStore: openSessionStore({ dir }),
    };
    await withServer(options, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      await prompt(agent, sessionId, 'First.');
      await agent.request(methods.agent.session.close, { sessionId });
      const path = sessionFilePath(dir, sessionId);
      const lines = readFileSync(path, 'utf8').split('\n');
      writeFileSync(path, [lines[0], '{"v":1,"type":"nonsense"}', ...lines.slice(1)].join('\n'));
      const error = await rejectionOf(
        agent.request(methods.agent.session.load, { sessionId, cwd: '/', mcpServers: [] }),
      );
      expect(error).toMatchObject({ code: -32603, data: { code: 'SESSION_INVALID', sessionId } });
      expect((error as Error).message).toContain(`${path} is damaged at line 2`);
    });
  });

  it('refuses to load a session another server holds, naming the process', async () => {
    const dir = temporaryStateFolder();
    const holder = createTestClient();
    await withServer(
      { model: createScriptedModel(DEMO_SCRIPT), sessionStore: openSessionStore({ dir }) },
      holder,
      async ({ agent }) => {
        const sessionId = await startSession(agent);
        const turn = prompt(agent, sessionId, 'Hold it.');
        await holder.forms.next();
        const other = createTestClient();
        await withServer(
          { model: createScriptedModel(DEMO_SCRIPT), sessionStore: openSessionStore({ dir }) },
          other,
          async (second) => {
            await initializeClient(second.agent);
            expect(
              await rejectionOf(
                second.agent.request(methods.agent.session.load, {
                  sessionId,
                  cwd: '/',
                  mcpServers: [],
                }),
              ),
            ).toMatchObject({
              code: -32600,
              message: `Session ${sessionId} is already open in this process.`,
              data: { code: 'SESSION_LOCKED', sessionId },
            });
          },
        );
        await agent.notify(methods.agent.session.cancel, { sessionId });
        expect(await turn).toEqual({ stopReason: 'cancelled' });
      },
    );
  });

  it('lists the sessions of a cwd newest first, a page at a time, with a cursor that must be its own', async () => {
    const testClient = createTestClient();
    const sessionStore = openSessionStore({ dir: temporaryStateFolder() });
    const model = createScriptedModel({ steps: [{ text: 'Ok.' }] });
    await withServer({ model, sessionStore }, testClient, async ({ agent }) => {
      await initializeClient(agent);
      const count = 2 * SESSION_LIST_PAGE_SIZE + 7;
      const ids = new Set<string>();
      for (let index = 0; index < count; index++) {
        const { sessionId } = await agent.request(methods.agent.session.new, {
          cwd: index % 2 === 0 ? '/a' : '/b',
          mcpServers: [],
        });
        await prompt(agent, sessionId, `Session ${index}`);
        if (index % 2 === 0) ids.add(sessionId);
      }
      // Half of them last active at the same moment: ties must neither repeat nor drop a session.
      const moment = new Date(Date.now() - 60_000);
      for (const sessionId of [...ids].slice(0, Math.floor(ids.size / 2))) {
        utimesSync(sessionFilePath(sessionStore.dir, sessionId), moment, moment);
      }
      const first = await agent.request(methods.agent.session.list, { cwd: '/a' });
      expect(ids.size).toBeGreaterThan(SESSION_LIST_PAGE_SIZE);
      expect(first.sessions).toHaveLength(SESSION_LIST_PAGE_SIZE);
      const all = [...first.sessions];
      let cursor = first.nextCursor;
      let pages = 1;
      while (cursor != null) {
        pages++;
        const page = await agent.request(methods.agent.session.list, { cwd: '/a', cursor });
        all.push(...page.sessions);
        cursor = page.nextCursor;
      }
      expect(pages).toBe(2);
      expect(new Set(all.map((info) => info.sessionId))).toEqual(ids);
      expect(all).toHaveLength(ids.size);
      const times = all.map((info) => Date.parse(info.updatedAt ?? ''));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect((await agent.request(methods.agent.session.list, {})).sessions).toHaveLength(
        SESSION_LIST_PAGE_SIZE,
      );

      for (const params of [{ cursor: 'not-ours' }, { cwd: 'relative/path' }]) {
        expect(await rejectionOf(agent.request(methods.agent.session.list, params))).toMatchObject({
          code: -32602,
        });
      }
    });
  });
});
