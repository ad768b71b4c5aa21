import { type ClientCapabilities, methods } from '@agentclientprotocol/sdk';
import { isUserInteractionError } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { createTestClient, type HeldPermissions } from '../../src/testing.js';
import { createTestAgent, type TurnScript } from '../support/test-agent.js';
import { initialize, startTurn, withConnection } from '../support/test-client.js';

const database = {
  question: 'Which database?',
  options: [
    { label: 'PostgreSQL', value: 'pg' },
    { label: 'SQLite', recommended: true },
  ],
  allowCustom: true,
};

const WITHOUT_FORMS: [string, ClientCapabilities][] = [
  ['no capabilities at all', {}],
  ['an empty elicitation object', { elicitation: {} }],
  ['a null form', { elicitation: { form: null } }],
  ['only url mode', { elicitation: { url: {} } }],
];

async function askWithout(
  capabilities: ClientCapabilities,
  script: TurnScript,
  respond: (permissions: HeldPermissions) => Promise<void>,
) {
  const testAgent = createTestAgent({ questionsAsPermissions: true });
  const testClient = createTestClient();
  return await withConnection(testAgent, testClient, async (agent, pipe) => {
    await initialize(agent, capabilities);
    const { sessionId, response } = await startTurn(agent, script);
    const formSent = testClient.forms.next().then(() => {
      throw new Error('a form reached a client that did not advertise forms');
    });
    await Promise.race([respond(testClient.permissions), formSent]);
    const outcome = await testAgent.outcomeOf(sessionId);
    await response;
    // Capabilities decide: the client never sees a form it did not advertise.
    expect(testClient.forms.received).toBe(0);
    expect(pipe.wire.requestsToClient(methods.client.elicitation.create)).toHaveLength(0);
    return { outcome, capabilities: testAgent.provider().capabilities };
  });
}

describe('a client without form elicitation, by default', () => {
  it.each(WITHOUT_FORMS)(
    'with %s gets no question: UNSUPPORTED says to ask in the reply, and nothing is sent',
    async (_name, capabilities) => {
      const testAgent = createTestAgent();
      const testClient = createTestClient();
      await withConnection(testAgent, testClient, async (agent, pipe) => {
        await initialize(agent, capabilities);
        expect(testAgent.provider().capabilities).toMatchObject({ questions: false });
        const { sessionId, response } = await startTurn(agent, { question: database });
        const outcome = await testAgent.outcomeOf(sessionId);
        await response;
        expect('error' in outcome && isUserInteractionError(outcome.error, 'UNSUPPORTED')).toBe(
          true,
        );
        expect((outcome as { error: Error }).error.message).toContain(
          "ask the question in your reply text, end your turn, and take the person's next message as the answer",
        );
        expect(pipe.wire.requestsToClient(methods.client.session.requestPermission)).toEqual([]);
        expect(pipe.wire.requestsToClient(methods.client.elicitation.create)).toEqual([]);
      });
    },
  );
});

describe('a client without form elicitation, with questionsAsPermissions', () => {
  it.each(WITHOUT_FORMS)(
    'with %s gets the question as a permission request and the selected option back',
    async (_name, capabilities) => {
      const { outcome, capabilities: shown } = await askWithout(
        capabilities,
        { question: database },
        async (permissions) => {
          const request = await permissions.next();
          expect(request.params).toEqual({
            sessionId: 'session-1',
            toolCall: { toolCallId: 'call-1', title: 'Which database?' },
            options: [
              { optionId: 'option-0', name: 'PostgreSQL', kind: 'allow_once' },
              { optionId: 'option-1', name: 'SQLite', kind: 'allow_once' },
            ],
          });
          request.reply({ outcome: { outcome: 'selected', optionId: 'option-0' } });
        },
      );
      expect(outcome).toMatchObject({ answer: { answer: 'pg', option: { label: 'PostgreSQL' } } });
      expect(shown).toEqual({ freeForm: false, customAnswer: false, permissions: false });
    },
  );

  it('maps a cancelled permission request to ASK_CANCELLED', async () => {
    const { outcome } = await askWithout({}, { question: database }, async (permissions) => {
      (await permissions.next()).reply({ outcome: { outcome: 'cancelled' } });
    });
    expect('error' in outcome && isUserInteractionError(outcome.error, 'ASK_CANCELLED')).toBe(true);
  });

  it('rejects an option id it never offered with INVALID_ANSWER', async () => {
    const { outcome } = await askWithout({}, { question: database }, async (permissions) => {
      (await permissions.next()).reply({ outcome: { outcome: 'selected', optionId: 'allow' } });
    });
    expect('error' in outcome && isUserInteractionError(outcome.error, 'INVALID_ANSWER')).toBe(
      true,
    );
  });

  it('fails a free-form question with UNSUPPORTED and sends nothing', async () => {
    const testAgent = createTestAgent({ questionsAsPermissions: true });
    const testClient = createTestClient();
    await withConnection(testAgent, testClient, async (agent, pipe) => {
      await initialize(agent, { elicitation: {} });
      const { sessionId, response } = await startTurn(agent, {
        question: { question: 'Project name?' },
      });
      const outcome = await testAgent.outcomeOf(sessionId);
      expect('error' in outcome && isUserInteractionError(outcome.error, 'UNSUPPORTED')).toBe(true);
      await response;
      expect(testClient.forms.received + testClient.permissions.received).toBe(0);
      expect(pipe.wire.requestsToClient(methods.client.elicitation.create)).toHaveLength(0);
      expect(pipe.wire.requestsToClient(methods.client.session.requestPermission)).toHaveLength(0);
    });
  });

  it('fails a free-form question with UNSUPPORTED through the contract service too', async () => {
    const testAgent = createTestAgent({ questionsAsPermissions: true });
    await withConnection(testAgent, createTestClient(), async (agent) => {
      await initialize(agent, {});
      const { sessionId } = await startTurn(agent, {
        question: { question: 'Project name?' },
        viaService: true,
      });
      const outcome = await testAgent.outcomeOf(sessionId);
      expect('error' in outcome && isUserInteractionError(outcome.error, 'UNSUPPORTED')).toBe(true);
    });
  });

  it('names a tool call of its own when the ask has none', async () => {
    let toolCallId: string | undefined;
    const { outcome } = await askWithout(
      {},
      { question: database, toolCall: false },
      async (permissions) => {
        const request = await permissions.next();
        toolCallId = request.params.toolCall.toolCallId;
        expect(request.params.toolCall.title).toBe('Which database?');
        request.reply({ outcome: { outcome: 'selected', optionId: 'option-1' } });
      },
    );
    expect(toolCallId).toMatch(/^question-[0-9a-f-]{36}$/);
    expect(outcome).toMatchObject({ answer: { answer: 'SQLite' } });
  });
});
