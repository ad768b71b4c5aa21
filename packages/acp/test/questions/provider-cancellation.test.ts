import { type ClientContext, methods, RequestError } from '@agentclientprotocol/sdk';
import {
  type AskUserQuestionRequest,
  isUserInteractionError,
  type UserInteractionErrorCode,
} from 'dsh-user-interaction';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAcpQuestionProvider } from '../../src/index.js';
import {
  cancelRequest,
  createTestClient,
  type TappedPipe,
  type TestClient,
  tappedPipe,
  WITH_FORMS,
} from '../../src/testing.js';
import { rejectionOf } from '../support/rejection-of.js';
import { type AskOutcome, createTestAgent, type TestAgent } from '../support/test-agent.js';
import { initialize, startTurn, withConnection } from '../support/test-client.js';

const database = {
  question: 'Which database?',
  options: [
    { label: 'PostgreSQL', value: 'pg' },
    { label: 'SQLite', recommended: true },
  ],
};

function errorCode(outcome: AskOutcome | unknown): UserInteractionErrorCode | undefined {
  const error =
    typeof outcome === 'object' && outcome !== null && 'error' in outcome ? outcome.error : outcome;
  return isUserInteractionError(error) ? error.code : undefined;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Connects a form-capable client, starts a turn that asks `database` and waits for its form. */
async function withPendingForm(
  op: (pending: {
    testAgent: TestAgent;
    testClient: TestClient;
    agent: ClientContext;
    pipe: TappedPipe;
    sessionId: string;
    response: Awaited<ReturnType<typeof startTurn>>['response'];
    form: Awaited<ReturnType<TestClient['forms']['next']>>;
  }) => Promise<void>,
): Promise<void> {
  const testAgent = createTestAgent({ questionsAsPermissions: true });
  const testClient = createTestClient();
  await withConnection(testAgent, testClient, async (agent, pipe) => {
    await initialize(agent, WITH_FORMS);
    const { sessionId, response } = await startTurn(agent, { question: database });
    const form = await testClient.forms.next();
    await op({ testAgent, testClient, agent, pipe, sessionId, response, form });
  });
}

describe('cancellation', () => {
  it('session/cancel while a form is pending: $/cancel_request for that request, ASK_ABORTED at once, late reply ignored', async () => {
    const errors = vi.spyOn(console, 'error');
    await withPendingForm(
      async ({ testAgent, testClient, agent, pipe, sessionId, response, form }) => {
        await agent.notify(methods.agent.session.cancel, { sessionId });
        // The client has not replied (it does below): a provider that waited for its reply
        // would never get here.
        const outcome = await testAgent.outcomeOf(sessionId);
        expect(errorCode(outcome)).toBe('ASK_ABORTED');
        expect((await response).stopReason).toBe('cancelled');

        // The client sees the cancel three ways: on the wire, in its `*` notification
        // fallback, and as the abort of the handler's signal, all for that request id.
        const cancel = await pipe.wire.waitFor(cancelRequest());
        expect(cancel.message).toMatchObject({ params: { requestId: form.requestId } });
        expect(await testClient.notifications.next()).toEqual({
          method: '$/cancel_request',
          params: { requestId: form.requestId },
        });
        expect(form.signal.aborted).toBe(true);
        expect(form.signal.reason).toBeInstanceOf(RequestError);
        expect(form.signal.reason).toMatchObject({
          code: -32800,
          data: { requestId: form.requestId },
        });

        // A late reply reaches the agent and changes nothing.
        form.reply({ action: 'accept', content: { choice: 'pg' } });
        await pipe.wire.waitFor(
          (entry) =>
            entry.to === 'agent' && 'id' in entry.message && entry.message.id === form.requestId,
        );
        expect(testAgent.provider().pending).toBe(0);
        expect(errors).not.toHaveBeenCalledWith('Got response to unknown request', form.requestId);

        // The same session asks again and gets its own answer, not the late one.
        const again = agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: JSON.stringify({ question: database }) }],
        });
        const second = await testClient.forms.next();
        expect(second.requestId).not.toBe(form.requestId);
        second.reply({ action: 'accept', content: { choice: 'SQLite' } });
        expect(await testAgent.outcomeOf(sessionId)).toMatchObject({
          answer: { answer: 'SQLite' },
        });
        expect((await again).stopReason).toBe('end_turn');
        expect(testAgent.outcomes.all).toHaveLength(2);
      },
    );
  });

  it('withdraws a pending permission request the same way', async () => {
    const testAgent = createTestAgent({ questionsAsPermissions: true });
    const testClient = createTestClient();
    await withConnection(testAgent, testClient, async (agent, pipe) => {
      await initialize(agent, {});
      const { sessionId, response } = await startTurn(agent, { question: database });
      const request = await testClient.permissions.next();
      await agent.notify(methods.agent.session.cancel, { sessionId });
      expect(errorCode(await testAgent.outcomeOf(sessionId))).toBe('ASK_ABORTED');
      expect((await response).stopReason).toBe('cancelled');
      await pipe.wire.waitFor(cancelRequest(request.requestId));
      // As ACP asks, the client answers a cancelled permission request with `cancelled`.
      request.reply({ outcome: { outcome: 'cancelled' } });
      expect(testAgent.outcomes.all).toHaveLength(1);
    });
  });

  it('sends nothing for a pre-aborted signal', async () => {
    const testAgent = createTestAgent({ questionsAsPermissions: true });
    const testClient = createTestClient();
    await withConnection(testAgent, testClient, async (agent, pipe) => {
      await initialize(agent, WITH_FORMS);
      testAgent.scopes.set('direct', { sessionId: 'session-direct' });
      const reason = new Error('gone');
      const error = await rejectionOf(
        testAgent.provider().ask({
          ...database,
          agent: { id: 'direct' },
          signal: AbortSignal.abort(reason),
        }),
      );
      expect(errorCode(error)).toBe('ASK_ABORTED');
      expect((error as Error).cause).toBe(reason);
      // A round trip after the ask proves anything it had sent would already be on the wire.
      await agent.request(methods.agent.session.new, { cwd: '/', mcpServers: [] });
      expect(pipe.wire.requestsToClient(methods.client.elicitation.create)).toHaveLength(0);
      expect(pipe.wire.requestsToClient('$/cancel_request')).toHaveLength(0);
    });
  });
});

describe('connection end and disposal', () => {
  it('rejects a pending question with INPUT_CLOSED when the client disconnects, and later asks at once', async () => {
    const testAgent = createTestAgent({ questionsAsPermissions: true });
    const testClient = createTestClient();
    const pipe = tappedPipe();
    const agentConnection = testAgent.app.connect(pipe.agentStream);
    const clientConnection = testClient.app.connect(pipe.clientStream);
    try {
      await initialize(clientConnection.agent, WITH_FORMS);
      const { sessionId, response } = await startTurn(clientConnection.agent, {
        question: database,
      });
      void response.catch(() => {});
      await testClient.forms.next();
      const provider = testAgent.provider();
      expect(provider.pending).toBe(1);

      pipe.disconnect();
      // Nothing answers the form after the disconnect: the ask ends on the disconnect alone.
      const outcome = await testAgent.outcomeOf(sessionId);
      expect(errorCode(outcome)).toBe('INPUT_CLOSED');
      expect(agentConnection.signal.aborted).toBe(true);
      expect(provider.pending).toBe(0);

      testAgent.scopes.set('later', { sessionId });
      const later = await rejectionOf(provider.ask({ ...database, agent: { id: 'later' } }));
      expect(errorCode(later)).toBe('INPUT_CLOSED');
    } finally {
      pipe.disconnect();
      clientConnection.close();
      agentConnection.close();
    }
  });

  it('rejects pending questions with INPUT_CLOSED on dispose, withdraws them on the wire, and refuses later asks', async () => {
    await withPendingForm(async ({ testAgent, pipe, sessionId, response, form }) => {
      const provider = testAgent.provider();
      provider.dispose();
      provider.dispose();
      expect(errorCode(await testAgent.outcomeOf(sessionId))).toBe('INPUT_CLOSED');
      expect((await response).stopReason).toBe('end_turn');
      await pipe.wire.waitFor(cancelRequest(form.requestId));
      testAgent.scopes.set('later', { sessionId });
      const sentBefore = pipe.wire.requestsToClient(methods.client.elicitation.create).length;
      expect(
        errorCode(await rejectionOf(provider.ask({ ...database, agent: { id: 'later' } }))),
      ).toBe('INPUT_CLOSED');
      expect(pipe.wire.requestsToClient(methods.client.elicitation.create)).toHaveLength(
        sentBefore,
      );
    });
  });

  it('works with `using`', async () => {
    const testAgent = createTestAgent({ questionsAsPermissions: true });
    const testClient = createTestClient();
    await withConnection(testAgent, testClient, async (agent) => {
      await initialize(agent, WITH_FORMS);
      testAgent.scopes.set('scoped', { sessionId: 'session-scoped' });
      let pending: Promise<unknown>;
      {
        using provider = testAgent.provider();
        pending = rejectionOf(provider.ask({ ...database, agent: { id: 'scoped' } }));
        await testClient.forms.next();
      }
      expect(errorCode(await pending)).toBe('INPUT_CLOSED');
    });
  });

  it('turns an ask whose scopeFor throws into ASK_FAILED with the cause', async () => {
    const boom = new Error('no map');
    const provider = createAcpQuestionProvider({
      connection: {
        client: {
          request: () => {
            throw new Error('must not send');
          },
        },
        signal: new AbortController().signal,
      },
      clientCapabilities: WITH_FORMS,
      scopeFor: () => {
        throw boom;
      },
    });
    const request: AskUserQuestionRequest = { ...database };
    const error = await rejectionOf(provider.ask(request));
    expect(errorCode(error)).toBe('ASK_FAILED');
    expect((error as Error).cause).toBe(boom);
  });
});
