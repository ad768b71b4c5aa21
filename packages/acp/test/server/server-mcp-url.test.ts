import {
  type ClientCapabilities,
  type CreateElicitationResponse,
  methods,
} from '@agentclientprotocol/sdk';
import { createScriptedModel, type Script } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import {
  cancelRequest,
  createTestClient,
  prompt,
  type TestClient,
  withServer,
} from '../../src/testing.js';
import { openEditorSession } from '../support/editor-session.js';
import { outputOf } from '../support/mcp-ask-form.js';
import { loopbackMcpServer } from '../support/mcp-loopback.js';

// The loopback MCP server of dsh-mcp's tests (its `ask_url` tool asks to open the URL it is given).
const STDIO = loopbackMcpServer();
const URL_TO_OPEN = 'https://login.example.com/oauth/authorize?state=1';
const WITH_URLS: ClientCapabilities = { elicitation: { form: {}, url: {} } };

/** A model that calls `ask_url` once per id, then ends the turn. */
function script(...ids: string[]): Script {
  return {
    steps: [
      ...ids.map((id) => ({
        text: 'Asking the server.',
        toolCalls: [{ id, name: 'mcp__loop__ask_url', arguments: { url: URL_TO_OPEN } }],
      })),
      { text: 'Done.' },
    ],
  };
}

/** Approves the next tool call once. */
async function approveNext(testClient: TestClient): Promise<void> {
  const approval = await testClient.permissions.next();
  approval.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
}

describe("an MCP server's URL-mode question in the editor", () => {
  it('goes as ACP URL elicitation, scoped to the tool call and naming the server; each action reaches the server', async () => {
    const testClient = createTestClient();
    const model = createScriptedModel(script('c1', 'c2', 'c3'));
    await withServer({ model }, testClient, async ({ agent }) => {
      const { sessionId } = await openEditorSession(agent, {
        mcpServers: [STDIO],
        capabilities: WITH_URLS,
      });
      const response = prompt(agent, sessionId, 'sign in');
      const ids: string[] = [];
      for (const [toolCallId, action] of [
        ['c1', 'accept'],
        ['c2', 'decline'],
        ['c3', 'cancel'],
      ] as const) {
        await approveNext(testClient);
        const asked = await testClient.forms.next();
        expect(asked.params).toMatchObject({
          sessionId,
          toolCallId,
          mode: 'url',
          url: URL_TO_OPEN,
          elicitationId: expect.any(String),
        });
        const { message } = asked.params;
        expect(message).toContain('MCP server loop asks you to open a web page.');
        expect(message).toContain('Sign in to link your account');
        expect(message).toContain('Domain: login.example.com');
        ids.push((asked.params as { elicitationId: string }).elicitationId);
        asked.reply({ action } as CreateElicitationResponse);
      }
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(new Set(ids).size).toBe(3);
      expect(JSON.parse(outputOf(testClient, sessionId, 'c1'))).toEqual({ action: 'accept' });
      expect(JSON.parse(outputOf(testClient, sessionId, 'c2'))).toMatchObject({
        action: 'decline',
      });
      expect(JSON.parse(outputOf(testClient, sessionId, 'c3'))).toMatchObject({
        action: 'cancel',
      });
      // Nothing else was asked: no form in its place, no permission request beyond the approvals.
      expect(testClient.forms.received).toBe(3);
      expect(testClient.permissions.received).toBe(3);
    });
  });

  for (const [who, clientCapabilities] of [
    ['with forms but no URL elicitation', { elicitation: { form: {} } }],
    ['with no elicitation at all', {}],
  ] as const) {
    it(`is declined to the server, with the reason, for an editor ${who} (no form, no permission request)`, async () => {
      const testClient = createTestClient();
      const model = createScriptedModel(script('c1'));
      await withServer({ model }, testClient, async ({ agent, log }) => {
        const { sessionId } = await openEditorSession(agent, {
          mcpServers: [STDIO],
          capabilities: clientCapabilities,
        });
        const response = prompt(agent, sessionId, 'sign in');
        await approveNext(testClient);
        expect(await response).toEqual({ stopReason: 'end_turn' });
        expect(JSON.parse(outputOf(testClient, sessionId, 'c1'))).toMatchObject({
          action: 'decline',
        });
        expect(testClient.forms.received).toBe(0);
        expect(testClient.permissions.received).toBe(1);
        // A 2026-07-28 server gets the decline without a reason (the SDK sends only the action).
        expect(log).toContainEqual(
          expect.stringMatching(
            /MCP server loop: its question was declined \(UNSUPPORTED: .*no URL elicitation/,
          ),
        );
      });
    });
  }

  it('goes to an editor that advertises URL elicitation without forms', async () => {
    const testClient = createTestClient();
    await withServer(
      { model: createScriptedModel(script('c1')) },
      testClient,
      async ({ agent }) => {
        const { sessionId } = await openEditorSession(agent, {
          mcpServers: [STDIO],
          capabilities: { elicitation: { url: {} } },
        });
        const response = prompt(agent, sessionId, 'sign in');
        await approveNext(testClient);
        const asked = await testClient.forms.next();
        expect(asked.params).toMatchObject({ sessionId, toolCallId: 'c1', mode: 'url' });
        asked.reply({ action: 'accept' } as CreateElicitationResponse);
        expect(await response).toEqual({ stopReason: 'end_turn' });
        expect(JSON.parse(outputOf(testClient, sessionId, 'c1'))).toEqual({ action: 'accept' });
      },
    );
  });

  it('is withdrawn ($/cancel_request) when the turn is cancelled while it waits', async () => {
    const testClient = createTestClient();
    await withServer(
      { model: createScriptedModel(script('c1')) },
      testClient,
      async ({ agent, pipe }) => {
        const { sessionId } = await openEditorSession(agent, {
          mcpServers: [STDIO],
          capabilities: WITH_URLS,
        });
        const response = prompt(agent, sessionId, 'sign in');
        await approveNext(testClient);
        const asked = await testClient.forms.next();
        await agent.notify(methods.agent.session.cancel, { sessionId });
        const cancel = await pipe.wire.waitFor(cancelRequest());
        expect(cancel.message).toMatchObject({ params: { requestId: asked.requestId } });
        expect(await response).toEqual({ stopReason: 'cancelled' });
      },
    );
  });
});
