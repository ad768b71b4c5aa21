import { createAgent, createScriptedModel } from 'dsh-agent';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import { connectMcpServer, withMcpRules } from '../src/index.js';
import { STDIO_SERVER } from './support/loopback.js';

const SCHEMA = JSON.stringify({
  type: 'object',
  properties: { env: { type: 'string', enum: ['staging', 'prod'] } },
  required: ['env'],
});
const CALL = {
  id: 'c1',
  name: 'mcp__loop__ask_form',
  arguments: { message: 'Where to deploy?', schema: SCHEMA },
};

describe('an MCP tool in the dsh agent loop', () => {
  it('is approved (always), runs, and its server question is answered; the next call runs unasked', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({
      answers: [
        { choice: 'allow_always' },
        { answers: { f0: { label: 'staging' } } },
        { label: 'Send' },
        { answers: { f0: { label: 'prod' } } },
        { label: 'Send' },
      ],
    });
    interaction.registerProvider(provider);
    const connection = await connectMcpServer(
      {
        name: 'loop',
        transport: 'stdio',
        command: STDIO_SERVER.command,
        args: STDIO_SERVER.args,
        env: {},
      },
      { interaction },
    );
    try {
      const model = createScriptedModel({
        steps: [
          { text: 'Deploying.', toolCalls: [CALL] },
          { text: 'Done.' },
          { text: 'Again.', toolCalls: [{ ...CALL, id: 'c2' }] },
          { text: 'Done again.' },
        ],
      });
      const agent = createAgent({
        id: 'agent-1',
        model,
        interaction,
        tools: connection.tools.tools,
        permissions: withMcpRules({ toolSets: () => [connection.tools] }),
      });
      const results: string[] = [];
      for (const prompt of ['deploy', 'deploy again']) {
        for await (const event of agent.run(prompt)) {
          if (event.type === 'tool-result') results.push(event.result.output);
        }
      }
      expect(results).toEqual([
        '{"action":"accept","content":{"env":"staging"}}',
        '{"action":"accept","content":{"env":"prod"}}',
      ]);
      // One approval only: the "always" rule, pinned to the tool's digest, decided the second call.
      expect(provider.permissions).toHaveLength(1);
      const [approval] = provider.permissions;
      expect(approval?.kind).toBe('other');
      expect(approval?.title).toContain('loop: ask_form');
      expect(approval?.allowAlways?.rule).toMatch(/^mcp:loop:ask_form@[0-9a-f]{16}$/);
      // The server's question came with the tool call's agent and named the server.
      expect(provider.batches[0]?.header).toBe('MCP server loop');
      expect(provider.batches[0]?.agent).toMatchObject({ id: 'agent-1', toolCallId: 'c1' });
    } finally {
      await connection.close();
    }
  });
});
