import type { CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startHttpServerProcess,
  stopHttpServerProcesses,
} from '../../../mcp/test/support/http-server-process.js';
import { createTestClient, prompt, withServer } from '../../src/testing.js';
import { openEditorSession } from '../support/editor-session.js';
import { askFormScript, outputOf } from '../support/mcp-ask-form.js';

// dsh-mcp's loopback Streamable HTTP server (written with the SDK's server package), in a process
// of its own: an editor's `{ type: "http" }` MCP server, end to end through dsh-acp.
const SCRIPT = askFormScript('web');

afterEach(stopHttpServerProcesses);

describe('an MCP server over Streamable HTTP given in session/new', () => {
  it('connects, its tool is approved and runs, and its question reaches the editor scoped to the tool call', async () => {
    const url = await startHttpServerProcess();
    const testClient = createTestClient();
    await withServer({ model: createScriptedModel(SCRIPT) }, testClient, async ({ agent }) => {
      const created = await openEditorSession(agent, {
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
