import { type ClientContext, methods } from '@agentclientprotocol/sdk';
import { createScriptedModel, openSessionStore } from 'dsh-agent';
import { removeTemporaryStateFolders, temporaryStateFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { AcpAgentServer } from '../../src/server.js';
import { createTestClient, prompt, startSession, withServer } from '../../src/testing.js';
import { rejectionOf } from '../support/rejection-of.js';

afterEach(removeTemporaryStateFolders);

describe('saved sessions', () => {
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
});
