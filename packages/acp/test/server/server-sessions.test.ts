import { statSync } from 'node:fs';
import { createScriptedModel } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import {
  createTestClient,
  initializeClient,
  newSession,
  prompt,
  startSession,
  withServer,
} from '../../src/testing.js';
import { jsonFixture } from '../support/json-fixture.js';
import { rejectionOf } from '../support/rejection-of.js';

const ONE_QUESTION = jsonFixture('one-question.json');

const SESSIONS = 50;

describe('many sessions on one connection', () => {
  it(`${SESSIONS} concurrent sessions each get their own question and their own answer, with no crosstalk`, async () => {
    // One model instance for every session: the scripted model keeps no state of its own.
    const model = createScriptedModel(ONE_QUESTION, { name: 'one-question' });
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent, server }) => {
      await initializeClient(agent);
      const sessionIds = await Promise.all(
        Array.from({ length: SESSIONS }, () => newSession(agent)),
      );
      expect(new Set(sessionIds).size).toBe(SESSIONS);
      expect(server.sessions).toBe(SESSIONS);
      const responses = sessionIds.map((sessionId) => prompt(agent, sessionId, 'Ask me.'));

      // Every question is on screen at once before any is answered.
      const forms = [];
      for (let i = 0; i < SESSIONS; i++) forms.push(await testClient.forms.next());
      expect(
        new Set(forms.map((form) => (form.params as QuestionElicitationRequest).sessionId)),
      ).toEqual(new Set(sessionIds));
      for (const form of forms.reverse()) {
        const params = form.params as QuestionElicitationRequest;
        expect(params.toolCallId).toBe('token');
        form.reply({ action: 'accept', content: { text: `answer for ${params.sessionId}` } });
      }

      expect(await Promise.all(responses)).toEqual(
        sessionIds.map(() => ({ stopReason: 'end_turn' })),
      );
      for (const sessionId of sessionIds) {
        const { updates } = testClient;
        expect(updates.text(sessionId)).toBe(`One question.You said answer for ${sessionId}.`);
        expect(updates.toolCalls(sessionId)).toHaveLength(1);
        expect(updates.resultText(sessionId, 'token')).toBe(`answer for ${sessionId}`);
      }
      expect(testClient.forms.received).toBe(SESSIONS);
    });
  });

  it('a prompt while the session runs a turn gets a clear error, and the running turn is not disturbed', async () => {
    const model = createScriptedModel(ONE_QUESTION, { name: 'one-question' });
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      const running = prompt(agent, sessionId, 'Ask me.');
      const form = await testClient.forms.next();

      const error = await rejectionOf(prompt(agent, sessionId, 'And this?'));
      expect(error).toMatchObject({
        code: -32600,
        message: expect.stringContaining('already running a turn'),
        data: { code: 'AGENT_BUSY', sessionId },
      });
      expect(form.signal.aborted).toBe(false);
      form.reply({ action: 'accept', content: { text: 'still here' } });
      expect(await running).toEqual({ stopReason: 'end_turn' });
      expect(testClient.updates.text(sessionId)).toContain('You said still here.');
    });
  });

  it('a prompt for an unknown session gets -32002 with the session id, and the server keeps serving', async () => {
    const model = createScriptedModel({ steps: [{ text: 'Hello.' }] });
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent }) => {
      await initializeClient(agent);
      const error = await rejectionOf(prompt(agent, 'no-such-session', 'Hi.'));
      expect(error).toMatchObject({
        code: -32002,
        message: 'Resource not found',
        data: { sessionId: 'no-such-session' },
      });
      const sessionId = await newSession(agent);
      expect(await prompt(agent, sessionId, 'Hi.')).toEqual({ stopReason: 'end_turn' });
    });
  });
});

describe('session/new', () => {
  it('needs an absolute cwd (POSIX or Windows), and a server that cannot start does not stop the session', async () => {
    const model = createScriptedModel({ steps: [{ text: 'Hello.' }] });
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent, log }) => {
      await initializeClient(agent);
      const relative = await rejectionOf(
        agent.request('session/new', { cwd: 'projects/x', mcpServers: [] }),
      );
      expect(relative).toMatchObject({
        code: -32602,
        message: 'Invalid params: cwd must be an absolute path',
        data: { cwd: 'projects/x' },
      });
      const windows = await agent.request('session/new', { cwd: 'C:\\work', mcpServers: [] });
      expect(windows.sessionId).toEqual(expect.any(String));
      const { sessionId } = await agent.request('session/new', {
        cwd: '/work',
        mcpServers: [{ name: 'files', command: '/bin/files-mcp', args: [], env: [] }],
      });
      expect(log).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^session ${sessionId}: MCP server files: not connected \\(The MCP server "files" did not connect: `,
          ),
        ),
      );
      expect(await prompt(agent, sessionId, 'Hi.')).toEqual({ stopReason: 'end_turn' });
    });
  });
});

describe('session/new with a cwd holding a NUL', () => {
  it('is invalid params (-32602) saying why, not an internal error from the file system', async () => {
    const model = createScriptedModel({ steps: [{ text: 'Hello.' }] });
    // As the program opens each session's workspace: the file system refuses a NUL by throwing.
    const toolsFor = (cwd: string) => {
      statSync(cwd);
      return {};
    };
    await withServer({ model, toolsFor }, createTestClient(), async ({ agent }) => {
      await initializeClient(agent);
      const refused = await rejectionOf(
        agent.request('session/new', { cwd: '/tmp/a\u0000b', mcpServers: [] }),
      );
      expect(refused).toMatchObject({
        code: -32602,
        message:
          'Invalid params: cwd holds a NUL character (\\0): no folder path can, so it names no folder',
        data: { cwd: '/tmp/a\u0000b' },
      });
    });
  });
});
