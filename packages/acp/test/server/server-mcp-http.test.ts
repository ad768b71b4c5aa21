import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type CreateElicitationResponse, methods } from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, prompt, WITH_FORMS, withServer } from '../../src/testing.js';
import { askFormScript, outputOf } from '../support/mcp-ask-form.js';

// dsh-mcp's loopback Streamable HTTP server (written with the SDK's server package), in a process
// of its own: an editor's `{ type: "http" }` MCP server, end to end through dsh-acp.
const HTTP_SERVER = fileURLToPath(
  new URL('../../../mcp/test/fixtures/http-server.mjs', import.meta.url),
);
const SCRIPT = askFormScript('web');

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function httpServer(): Promise<string> {
  const child = spawn(process.execPath, [HTTP_SERVER], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const [url] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return url;
}

describe('an MCP server over Streamable HTTP given in session/new', () => {
  it('connects, its tool is approved and runs, and its question reaches the editor scoped to the tool call', async () => {
    const url = await httpServer();
    const testClient = createTestClient();
    await withServer({ model: createScriptedModel(SCRIPT) }, testClient, async ({ agent }) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: WITH_FORMS,
      });
      const created = await agent.request(methods.agent.session.new, {
        cwd: '/work/project',
        mcpServers: [{ type: 'http', name: 'web', url, headers: [{ name: 'x-team', value: 'a' }] }],
      });
      const { sessionId } = created;
      expect(created._meta?.['dev.dsh/mcpServers']).toEqual([
        { name: 'web', connected: true, tools: expect.any(Number) },
      ]);
      const response = prompt(agent, sessionId, 'deploy');
      const approval = await testClient.permissions.next();
      expect(approval.params.toolCall.title).toContain('web: ask_form');
      approval.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      const form = await testClient.forms.next();
      expect(form.params).toMatchObject({ sessionId, toolCallId: 'c1', mode: 'form' });
      form.reply({ action: 'accept', content: { f0: 'c:1' } } as CreateElicitationResponse);
      const review = await testClient.forms.next();
      expect(review.params).toMatchObject({ toolCallId: 'c1' });
      review.reply({ action: 'accept', content: { choice: 'send' } } as CreateElicitationResponse);
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(outputOf(testClient, sessionId)).toBe('{"action":"accept","content":{"env":"prod"}}');
    });
  });
});
