import { randomUUID } from 'node:crypto';
import {
  agent,
  type ClientCapabilities,
  client,
  methods,
  PROTOCOL_VERSION,
} from '@agentclientprotocol/sdk';
import { isUserInteractionError } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import {
  type AcpQuestionProvider,
  createAcpQuestionProvider,
  type QuestionScope,
} from '../../src/index.js';

/** The README's usage example, connected to a client instead of stdio. */
function exampleAgent({ questionsAsPermissions = false } = {}) {
  let clientCapabilities: ClientCapabilities | undefined;
  let provider: AcpQuestionProvider | undefined;
  const scopes = new Map<string, QuestionScope>();
  const turns = new Map<string, AbortController>();

  return agent()
    .onConnect((connection) => {
      provider = createAcpQuestionProvider({
        connection,
        clientCapabilities: () => clientCapabilities,
        scopeFor: (request) => scopes.get(request.agent?.id ?? ''),
        // Not in the README: only the test of the old path sets it.
        ...(questionsAsPermissions && { questionsAsPermissions }),
      });
      void connection.closed.then(() => provider?.dispose());
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities;
      return { protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} };
    })
    .onRequest(methods.agent.session.new, () => ({ sessionId: randomUUID() }))
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      turns.get(params.sessionId)?.abort();
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      const { sessionId } = params;
      const turn = new AbortController();
      turns.set(sessionId, turn);
      const toolCallId = randomUUID();
      const question = 'Which database should the service use?';
      await client.notify(methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: 'tool_call', toolCallId, title: question, status: 'pending' },
      });
      scopes.set(sessionId, { sessionId, toolCallId });
      let text: string;
      try {
        if (provider === undefined) throw new Error('not connected');
        const { answer } = await provider.ask({
          question,
          header: 'Database',
          options: [
            { label: 'PostgreSQL', value: 'postgres', recommended: true },
            { label: 'SQLite', description: 'A single file, no server.' },
          ],
          allowCustom: true,
          agent: { id: sessionId },
          signal: turn.signal,
        });
        text = `You chose ${answer}.`;
      } catch (error) {
        if (turn.signal.aborted) return { stopReason: 'cancelled' };
        text = isUserInteractionError(error) ? `No answer (${error.code}).` : 'Something failed.';
      } finally {
        turns.delete(sessionId);
      }
      await client.notify(methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
      });
      return { stopReason: 'end_turn' };
    });
}

async function converse(
  capabilities: ClientCapabilities,
  editor: ReturnType<typeof client>,
  options: { questionsAsPermissions?: boolean } = {},
) {
  return await editor.connectWith(exampleAgent(options), async (connection) => {
    await connection.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: capabilities,
    });
    return await connection.buildSession('/').withSession(async (session) => {
      await session.prompt('hello');
      return await session.readText();
    });
  });
}

describe('the README example', () => {
  it('asks a form-capable editor with a form and reports the typed answer', async () => {
    const editor = client().onRequest(methods.client.elicitation.create, ({ params }) => {
      expect(params).toMatchObject({
        mode: 'form',
        message: 'Which database should the service use?',
      });
      return { action: 'accept', content: { choice: 'postgres', text: 'CockroachDB' } };
    });
    expect(await converse({ elicitation: { form: {} } }, editor)).toBe('You chose CockroachDB.');
  });

  it('asks an editor without forms nothing: the ask fails with UNSUPPORTED', async () => {
    let asked = 0;
    const editor = client().onRequest(methods.client.session.requestPermission, ({ params }) => {
      asked += 1;
      return { outcome: { outcome: 'selected', optionId: params.options[0]?.optionId ?? '' } };
    });
    expect(await converse({}, editor)).toBe('No answer (UNSUPPORTED).');
    expect(asked).toBe(0);
  });

  it('with questionsAsPermissions, asks an editor without forms through a permission request', async () => {
    const editor = client().onRequest(methods.client.session.requestPermission, ({ params }) => {
      expect(params.toolCall.title).toBe('Which database should the service use?');
      return { outcome: { outcome: 'selected', optionId: params.options[1]?.optionId ?? '' } };
    });
    expect(await converse({}, editor, { questionsAsPermissions: true })).toBe('You chose SQLite.');
  });
});
