import { methods, RequestError } from '@agentclientprotocol/sdk';
import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import {
  cancelRequest,
  createTestClient,
  newSession,
  prompt,
  startSession,
  withServer,
} from '../../src/testing.js';
import { openSession, rawWire } from '../support/raw-wire.js';
import { rejectionOf } from '../support/rejection-of.js';
import { cancelWhileFormPending } from '../support/server-harness.js';

const demo = () => ({ model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }) });

describe('session/cancel', () => {
  it('while a form is pending: withdraws it ($/cancel_request) and ends the turn cancelled, though the client never replies', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent, pipe }) => {
      const { sessionId, form } = await cancelWhileFormPending(agent, testClient);

      // The client saw the withdrawal of exactly that request.
      const cancel = await pipe.wire.waitFor(cancelRequest());
      expect(cancel.message).toMatchObject({ params: { requestId: form.requestId } });
      expect(form.signal.aborted).toBe(true);
      expect(form.signal.reason).toBeInstanceOf(RequestError);
      expect(form.signal.reason).toMatchObject({ code: -32800 });

      // The tool call got its final status before the turn's response.
      const { updates } = testClient;
      expect(updates.toolCallUpdates(sessionId)).toEqual([
        expect.objectContaining({
          toolCallId: 'language',
          status: 'failed',
          rawOutput: { error: expect.objectContaining({ code: 'TURN_CANCELLED' }) },
        }),
      ]);
      const messages = pipe.wire.messages.map((entry) => entry.message);
      const lastUpdate = messages.findLastIndex(
        (message) => 'method' in message && message.method === methods.client.session.update,
      );
      const promptReply = messages.findIndex(
        (message) =>
          'result' in message &&
          typeof message.result === 'object' &&
          message.result !== null &&
          Object.hasOwn(message.result, 'stopReason'),
      );
      expect(lastUpdate).toBeLessThan(promptReply);

      // A late reply changes nothing, and the session takes the next prompt, which asks the
      // cancelled question again (a tool call of its own).
      form.reply({ action: 'accept', content: { choice: 'Go' } });
      const next = prompt(agent, sessionId, 'Go on.');
      const again = await testClient.forms.next();
      expect(again.params).toMatchObject({ sessionId, toolCallId: 'language#2' });
      expect(updates.resultText(sessionId, 'language')).not.toBe('Go');
      again.reply({ action: 'decline' });
      const nameForm = await testClient.forms.next();
      expect(nameForm.params).toMatchObject({ sessionId, toolCallId: 'name' });
      nameForm.reply({ action: 'decline' });
      for (let i = 0; i < 2; i++) (await testClient.forms.next()).reply({ action: 'decline' });
      expect(await next).toEqual({ stopReason: 'end_turn' });
    });
  });

  it('cancels only its own session', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent }) => {
      const first = await startSession(agent);
      const second = await newSession(agent);
      const firstTurn = prompt(agent, first, 'Start.');
      const firstForm = await testClient.forms.next();
      const secondTurn = prompt(agent, second, 'Start.');
      const secondForm = await testClient.forms.next();
      expect((secondForm.params as QuestionElicitationRequest).sessionId).toBe(second);

      await agent.notify(methods.agent.session.cancel, { sessionId: first });
      expect(await firstTurn).toEqual({ stopReason: 'cancelled' });
      expect(firstForm.signal.aborted).toBe(true);
      expect(secondForm.signal.aborted).toBe(false);

      secondForm.reply({ action: 'accept', content: { choice: 'Rust' } });
      for (let i = 0; i < 3; i++) (await testClient.forms.next()).reply({ action: 'decline' });
      expect(await secondTurn).toEqual({ stopReason: 'end_turn' });
      expect(testClient.updates.resultText(second, 'language')).toBe('Rust');
    });
  });

  it('with no turn running, or for an unknown session, is ignored and the server keeps serving', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent, server }) => {
      const sessionId = await startSession(agent);
      await agent.notify(methods.agent.session.cancel, { sessionId });
      await agent.notify(methods.agent.session.cancel, { sessionId: 'no-such-session' });
      const response = prompt(agent, sessionId, 'Start.');
      for (let i = 0; i < 4; i++) (await testClient.forms.next()).reply({ action: 'decline' });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(server.sessions).toBe(1);
    });
  });

  it('$/cancel_request for the session/prompt request itself ends the turn cancelled, as a result', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      const stop = new AbortController();
      const response = agent.request(
        methods.agent.session.prompt,
        { sessionId, prompt: [{ type: 'text', text: 'Start.' }] },
        { cancellationSignal: stop.signal },
      );
      const form = await testClient.forms.next();
      stop.abort();
      expect(await response).toEqual({ stopReason: 'cancelled' });
      expect(form.signal.aborted).toBe(true);
    });
  });
});

describe('session/close', () => {
  it('cancels the running turn, withdraws its question, then frees the session', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent, server, pipe }) => {
      const sessionId = await startSession(agent);
      const other = await newSession(agent);
      const response = prompt(agent, sessionId, 'Start.');
      const form = await testClient.forms.next();
      expect(server.sessions).toBe(2);

      const closed = agent.request(methods.agent.session.close, { sessionId });
      expect(await response).toEqual({ stopReason: 'cancelled' });
      expect(await closed).toEqual({});
      expect(form.signal.aborted).toBe(true);
      expect(server.sessions).toBe(1);

      const error = await rejectionOf(prompt(agent, sessionId, 'Again.'));
      expect(error).toMatchObject({ code: -32002, data: { sessionId } });
      // Closing again, or closing a session that never existed, succeeds (on the wire too:
      // the SDK's client would hide a -32002 here).
      expect(await agent.request(methods.agent.session.close, { sessionId })).toEqual({});
      expect(await agent.request(methods.agent.session.close, { sessionId: 'nope' })).toEqual({});
      const errors = pipe.wire.messages.filter(
        (entry) => entry.to === 'client' && 'error' in entry.message,
      );
      expect(errors).toHaveLength(1);
      expect(server.sessions).toBe(1);
      expect(other).not.toBe(sessionId);
    });
  });
});

describe('$/cancel_request with a reused request id', () => {
  it('a refused duplicate of a running prompt’s id leaves that prompt cancellable by its id', async () => {
    const wire = rawWire(demo());
    const sessionId = await openSession(wire);
    const promptParams = { sessionId, prompt: [{ type: 'text', text: 'Start.' }] };
    wire.send({ id: 7, method: 'session/prompt', params: promptParams });
    const form = await wire.waitFor((message) => message.method === 'elicitation/create');

    wire.send({ id: 7, method: 'session/prompt', params: promptParams });
    expect(await wire.response(7)).toMatchObject({
      id: 7,
      error: { code: -32600, data: { code: 'AGENT_BUSY', sessionId } },
    });

    wire.send({ method: '$/cancel_request', params: { requestId: 7 } });
    expect(await wire.waitFor((message) => message.id === 7 && 'result' in message)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { stopReason: 'cancelled' },
    });
    // Its question was withdrawn too.
    expect(await wire.waitFor((message) => message.method === '$/cancel_request')).toMatchObject({
      params: { requestId: form.id },
    });
    await wire.end();
  });
});
