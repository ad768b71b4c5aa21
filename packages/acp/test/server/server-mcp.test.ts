import { type CreateElicitationResponse, methods } from '@agentclientprotocol/sdk';
import { createScriptedModel, openSessionStore } from 'dsh-agent';
import { removeTemporaryStateFolders, temporaryStateFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, prompt, WITH_FORMS, withServer } from '../../src/testing.js';
import { openEditorSession } from '../support/editor-session.js';
import { askFormScript, outputOf } from '../support/mcp-ask-form.js';
import { loopbackMcpServer } from '../support/mcp-loopback.js';

// The loopback MCP server of dsh-mcp's tests, written with the SDK's own server package.
const STDIO = loopbackMcpServer();
const SCRIPT = askFormScript('loop');

afterEach(removeTemporaryStateFolders);

describe('MCP servers given in session/load', () => {
  it('connects them for the reopened session and says so in _meta', async () => {
    const sessionStore = openSessionStore({ dir: temporaryStateFolder() });
    const options = { model: createScriptedModel({ steps: [{ text: 'Hello.' }] }), sessionStore };
    const testClient = createTestClient();
    await withServer(options, testClient, async ({ agent }) => {
      const { sessionId } = await openEditorSession(agent);
      expect(await prompt(agent, sessionId, 'Hi.')).toEqual({ stopReason: 'end_turn' });
      await agent.request(methods.agent.session.close, { sessionId });
      const loaded = await agent.request(methods.agent.session.load, {
        sessionId,
        cwd: '/work/project',
        mcpServers: [STDIO],
      });
      expect(loaded._meta?.['dev.dsh/mcpServers']).toEqual([
        { name: 'loop', connected: true, tools: expect.any(Number) },
      ]);
    });
  });
});

describe('MCP servers given in session/new', () => {
  it('declines a server question, with the reason, to an editor without forms (never a permission request)', async () => {
    const testClient = createTestClient({ handlesForms: false });
    await withServer({ model: createScriptedModel(SCRIPT) }, testClient, async ({ agent, log }) => {
      const { sessionId } = await openEditorSession(agent, {
        mcpServers: [STDIO],
        capabilities: {},
      });
      const response = prompt(agent, sessionId, 'deploy');
      const approval = await testClient.permissions.next();
      approval.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      // The only permission request was the tool's approval; the server was told why it got no answer.
      expect(testClient.permissions.received).toBe(1);
      // A 2026-07-28 server gets the decline (the SDK sends no reason with it); the log says why.
      expect(JSON.parse(outputOf(testClient, sessionId))).toMatchObject({ action: 'decline' });
      expect(log).toContainEqual(
        expect.stringMatching(
          /MCP server loop: its question was declined \(UNSUPPORTED: .*no form elicitation/,
        ),
      );
    });
  });

  it('tells the person which server did not connect, and why', async () => {
    const testClient = createTestClient();
    await withServer({ model: createScriptedModel(SCRIPT) }, testClient, async ({ agent }) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: WITH_FORMS,
      });
      const { sessionId, _meta } = await agent.request(methods.agent.session.new, {
        cwd: '/work/project',
        mcpServers: [{ name: 'gone', command: '/nonexistent/mcp-server', args: [], env: [] }],
      });
      expect(_meta?.['dev.dsh/mcpServers']).toEqual([
        {
          name: 'gone',
          connected: false,
          reason: expect.stringContaining('The MCP server "gone" did not connect'),
        },
      ]);
      await expect
        .poll(() => testClient.updates.text(sessionId))
        .toContain('MCP server gone did not connect');
    });
  });

  it("mcpTrustReadOnly runs a named server's read-only tool with no permission request", async () => {
    const call = { id: 'c1', name: 'mcp__loop__echo', arguments: { text: 'hi' } };
    const model = () => createScriptedModel({ steps: [{ toolCalls: [call] }, { text: 'Done.' }] });
    for (const [trusted, requests] of [
      [['loop'], 0],
      [['Loop', 'other'], 1],
    ] as const) {
      const testClient = createTestClient();
      const options = { model: model(), mcpTrustReadOnly: trusted };
      await withServer(options, testClient, async ({ agent }) => {
        const { sessionId } = await openEditorSession(agent, { mcpServers: [STDIO] });
        const response = prompt(agent, sessionId, 'echo');
        if (requests === 1) {
          const approval = await testClient.permissions.next();
          expect(approval.params.toolCall.title).toContain('loop: Echo');
          approval.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
        }
        expect(await response).toMatchObject({ stopReason: 'end_turn' });
        expect(outputOf(testClient, sessionId)).toContain('echo: hi');
        expect(testClient.permissions.received).toBe(requests);
      });
    }
  });

  it("gives the server's question the agent's questionTimeoutMs, shown in the form", async () => {
    const testClient = createTestClient();
    const options = { model: createScriptedModel(SCRIPT), questionTimeoutMs: 90_000 };
    await withServer(options, testClient, async ({ agent }) => {
      const { sessionId } = await openEditorSession(agent, { mcpServers: [STDIO] });
      const response = prompt(agent, sessionId, 'deploy');
      const approval = await testClient.permissions.next();
      approval.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      const form = await testClient.forms.next();
      expect(form.params).toMatchObject({ sessionId, toolCallId: 'c1', mode: 'form' });
      expect(form.params.message).toBe(
        'MCP server loop\n\n(90 s left to answer: then it is withdrawn, unanswered.)',
      );
      form.reply({ action: 'cancel' } as CreateElicitationResponse);
      await response;
      expect(JSON.parse(outputOf(testClient, sessionId))).toMatchObject({ action: 'cancel' });
    });
  });

  it('advertises stdio and Streamable HTTP (not SSE)', async () => {
    await withServer(
      { model: createScriptedModel(SCRIPT) },
      createTestClient(),
      async ({ agent }) => {
        const response = await agent.request(methods.agent.initialize, {
          protocolVersion: 1,
          clientCapabilities: WITH_FORMS,
        });
        expect(response.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false });
      },
    );
  });

  it('connects them, says so in _meta, gates their tools and relays their questions scoped to the tool call', async () => {
    const testClient = createTestClient();
    await withServer({ model: createScriptedModel(SCRIPT) }, testClient, async ({ agent }) => {
      const created = await openEditorSession(agent, {
        mcpServers: [
          STDIO,
          { type: 'sse', name: 'old', url: 'https://x.example/sse', headers: [] },
        ],
      });
      const { sessionId } = created;
      expect(created._meta?.['dev.dsh/mcpServers']).toEqual([
        { name: 'loop', connected: true, tools: expect.any(Number) },
        { name: 'old', connected: false, reason: 'SSE is not supported; use Streamable HTTP' },
      ]);
      const response = prompt(agent, sessionId, 'deploy');
      const approval = await testClient.permissions.next();
      expect(approval.params.toolCall.title).toContain('loop: ask_form');
      approval.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      const form = await testClient.forms.next();
      expect(form.params).toMatchObject({
        sessionId,
        toolCallId: 'c1',
        mode: 'form',
        message: 'MCP server loop',
      });
      form.reply({ action: 'accept', content: { f0: 'c:1' } } as CreateElicitationResponse);
      const review = await testClient.forms.next();
      expect(review.params).toMatchObject({
        toolCallId: 'c1',
        message: 'Send these answers to loop?\n\nEnvironment: prod',
      });
      review.reply({ action: 'accept', content: { choice: 'send' } } as CreateElicitationResponse);
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(outputOf(testClient, sessionId)).toBe('{"action":"accept","content":{"env":"prod"}}');
    });
  });
});
