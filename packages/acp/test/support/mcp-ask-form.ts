import type { Script } from 'dsh-agent';
import type { TestClient } from '../../src/testing.js';

/** The schema of the loopback MCP server's `ask_form` question: one required choice. */
const SCHEMA = JSON.stringify({
  type: 'object',
  properties: { env: { type: 'string', title: 'Environment', enum: ['staging', 'prod'] } },
  required: ['env'],
});

/** A model that calls `ask_form` of the MCP server `server` (call `c1`), then says it is done. */
export function askFormScript(server: string): Script {
  return {
    steps: [
      {
        text: 'Asking the server.',
        toolCalls: [
          {
            id: 'c1',
            name: `mcp__${server}__ask_form`,
            arguments: { message: 'Where to deploy?', schema: SCHEMA },
          },
        ],
      },
      { text: 'Done.' },
    ],
  };
}

/** The last text a tool call (`c1` unless told) showed: its output, after the note of who allowed it. */
export function outputOf(testClient: TestClient, sessionId: string, toolCallId = 'c1'): string {
  const last = testClient.updates
    .toolCallUpdates(sessionId)
    .filter((update) => update.toolCallId === toolCallId)
    .at(-1);
  const texts = (last?.content ?? []).flatMap((block) =>
    block.type === 'content' && block.content.type === 'text' ? [block.content.text] : [],
  );
  return texts.at(-1) ?? '';
}
