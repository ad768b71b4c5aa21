import { methods, RequestError } from '@agentclientprotocol/sdk';
import { isUserInteractionError, type UserInteractionErrorCode } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { elicitationForQuestion, type QuestionElicitationRequest } from '../../src/index.js';
import { createTestClient, type HeldElicitations, WITH_FORMS } from '../../src/testing.js';
import { DATABASE_QUESTION } from '../support/database-question.js';
import { type AskOutcome, createTestAgent, type TurnScript } from '../support/test-agent.js';
import { initialize, startTurn, withConnection } from '../support/test-client.js';

const database = DATABASE_QUESTION;

function errorCode(outcome: AskOutcome): UserInteractionErrorCode | undefined {
  if (!('error' in outcome)) return undefined;
  return isUserInteractionError(outcome.error) ? outcome.error.code : undefined;
}

/** Runs one turn against a form-capable client; `respond` plays the person. */
async function askOnce(
  script: TurnScript,
  respond: (forms: HeldElicitations) => Promise<void>,
  { handlesForms = true } = {},
) {
  const testAgent = createTestAgent();
  const testClient = createTestClient({ handlesForms });
  return await withConnection(testAgent, testClient, async (agent) => {
    await initialize(agent, WITH_FORMS);
    const { sessionId, response } = await startTurn(agent, script);
    await respond(testClient.forms);
    const outcome = await testAgent.outcomeOf(sessionId);
    expect(outcome.sessionId).toBe(sessionId);
    return { outcome, response: await response, testAgent };
  });
}

describe('questions as forms, over the SDK client', () => {
  it('sends the form scoped to the session and tool call, and returns the chosen option', async () => {
    let seen: QuestionElicitationRequest | undefined;
    const { outcome, response } = await askOnce({ question: database }, async (forms) => {
      const form = await forms.next();
      seen = form.params as QuestionElicitationRequest;
      form.reply({ action: 'accept', content: { choice: 'pg' } });
    });
    // Exactly the form `elicitationForQuestion` makes (its test pins every field), scoped to the
    // asking session and tool call.
    expect(seen).toEqual(
      elicitationForQuestion(database, { sessionId: 'session-1', toolCallId: 'call-1' }),
    );
    expect(outcome).toMatchObject({ answer: { answer: 'pg', option: { label: 'PostgreSQL' } } });
    expect(response.stopReason).toBe('end_turn');
  });

  it('returns the recommended option when the person keeps the default', async () => {
    const { outcome } = await askOnce({ question: database }, async (forms) => {
      const form = await forms.next();
      const schema = (form.params as QuestionElicitationRequest).requestedSchema;
      // A form UI submits the default it was given.
      form.reply({
        action: 'accept',
        content: { choice: schema.properties.choice?.default ?? '' },
      });
    });
    expect(outcome).toMatchObject({ answer: { answer: 'SQLite', option: { recommended: true } } });
  });

  it('lets a typed custom answer win over the choice', async () => {
    const { outcome } = await askOnce(
      { question: { ...database, allowCustom: true } },
      async (forms) => {
        const form = await forms.next();
        expect((form.params as QuestionElicitationRequest).requestedSchema.required).toEqual([]);
        form.reply({ action: 'accept', content: { choice: 'SQLite', text: ' DuckDB ' } });
      },
    );
    expect(outcome).toEqual({ sessionId: 'session-1', answer: { answer: 'DuckDB' } });
  });

  it('asks a free-form question with a required text field', async () => {
    const { outcome } = await askOnce(
      { question: { question: 'Project name?' } },
      async (forms) => {
        const form = await forms.next();
        expect((form.params as QuestionElicitationRequest).requestedSchema).toMatchObject({
          properties: { text: { type: 'string', minLength: 1 } },
          required: ['text'],
        });
        form.reply({ action: 'accept', content: { text: 'dsh' } });
      },
    );
    expect(outcome).toEqual({ sessionId: 'session-1', answer: { answer: 'dsh' } });
  });

  it('maps decline to ASK_DECLINED and cancel to ASK_CANCELLED', async () => {
    const declined = await askOnce({ question: database }, async (forms) => {
      (await forms.next()).reply({ action: 'decline' });
    });
    expect(errorCode(declined.outcome)).toBe('ASK_DECLINED');
    const cancelled = await askOnce({ question: database }, async (forms) => {
      (await forms.next()).reply({ action: 'cancel' });
    });
    expect(errorCode(cancelled.outcome)).toBe('ASK_CANCELLED');
  });

  it.each([
    ['an unknown choice', { action: 'accept', content: { choice: 'MySQL' } }],
    ['a wrong type', { action: 'accept', content: { choice: 1 } }],
    ['extra fields', { action: 'accept', content: { choice: 'pg', note: 'x' } }],
    ['an unknown action', { action: 'maybe' }],
  ])('rejects %s from the client with INVALID_ANSWER', async (_name, reply) => {
    const { outcome } = await askOnce({ question: database }, async (forms) => {
      (await forms.next()).reply(reply as never);
    });
    expect(errorCode(outcome)).toBe('INVALID_ANSWER');
  });

  it('rejects a blank required free-form answer with INVALID_ANSWER', async () => {
    const { outcome } = await askOnce({ question: { question: 'Name?' } }, async (forms) => {
      (await forms.next()).reply({ action: 'accept', content: { text: '   ' } });
    });
    expect(errorCode(outcome)).toBe('INVALID_ANSWER');
  });

  it('turns a JSON-RPC error reply into ASK_FAILED with the original as the cause', async () => {
    const { outcome } = await askOnce({ question: database }, async (forms) => {
      (await forms.next()).fail(RequestError.invalidParams({ reason: 'bad schema' }));
    });
    expect(errorCode(outcome)).toBe('ASK_FAILED');
    const cause = (outcome as { error: Error }).error.cause;
    expect(cause).toBeInstanceOf(RequestError);
    expect(cause).toMatchObject({ code: -32602, data: { reason: 'bad schema' } });
  });

  it('turns a reply that the client cancelled the request (-32800) into ASK_CANCELLED', async () => {
    const { outcome } = await askOnce({ question: database }, async (forms) => {
      (await forms.next()).fail(RequestError.requestCancelled());
    });
    expect(errorCode(outcome)).toBe('ASK_CANCELLED');
    expect((outcome as { error: Error }).error.cause).toMatchObject({ code: -32800 });
  });

  it('turns method-not-found (a client that advertised forms but has no handler) into UNSUPPORTED', async () => {
    const { outcome } = await askOnce({ question: database }, async () => {}, {
      handlesForms: false,
    });
    expect(errorCode(outcome)).toBe('UNSUPPORTED');
    expect((outcome as { error: Error }).error.cause).toMatchObject({ code: -32601 });
  });

  it('fails with ASK_FAILED when no session is known for the asking agent, sending nothing', async () => {
    const testAgent = createTestAgent();
    const testClient = createTestClient();
    await withConnection(testAgent, testClient, async (agent, pipe) => {
      await initialize(agent, WITH_FORMS);
      const { sessionId, response } = await startTurn(agent, { question: database, routed: false });
      expect(errorCode(await testAgent.outcomeOf(sessionId))).toBe('ASK_FAILED');
      await response;
      expect(pipe.wire.requestsToClient(methods.client.elicitation.create)).toHaveLength(0);
    });
  });

  it('works through the contract service, which validates the answer', async () => {
    const { outcome } = await askOnce({ question: database, viaService: true }, async (forms) => {
      (await forms.next()).reply({ action: 'accept', content: { choice: 'pg' } });
    });
    expect(outcome).toMatchObject({ answer: { answer: 'pg', option: { value: 'pg' } } });
  });

  it('reports form capabilities to the contract: free-form and custom answers', async () => {
    const testAgent = createTestAgent();
    await withConnection(testAgent, createTestClient(), async (agent) => {
      expect(testAgent.provider().capabilities).toEqual({
        freeForm: false,
        customAnswer: false,
        questions: false,
        permissions: false,
      });
      await initialize(agent, WITH_FORMS);
      // The test agent gives no permissionScopeFor: it takes no approvals.
      expect(testAgent.provider().capabilities).toEqual({
        freeForm: true,
        customAnswer: true,
        permissions: false,
      });
    });
  });

  it("works over the SDK's own in-memory pair (connectWith(agentApp))", async () => {
    const testAgent = createTestAgent();
    const testClient = createTestClient();
    const reply = (async () => {
      (await testClient.forms.next()).reply({ action: 'accept', content: { choice: 'SQLite' } });
    })();
    const text = await testClient.app.connectWith(testAgent.app, async (agent) => {
      await initialize(agent, WITH_FORMS);
      return await agent.buildSession('/').withSession(async (session) => {
        await session.prompt(JSON.stringify({ question: database }));
        const message = await session.nextUpdate();
        expect(message.kind).toBe('session_update');
        return await session.readText();
      });
    });
    await reply;
    expect(text).toBe('answer:SQLite');
  });
});
