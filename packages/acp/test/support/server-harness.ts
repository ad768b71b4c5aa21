import { type ClientContext, methods } from '@agentclientprotocol/sdk';
import { expect } from 'vitest';
import { type HeldElicitations, prompt, startSession, type TestClient } from '../../src/testing.js';

/**
 * Starts a session and a turn whose first step shows a form, sends `session/cancel` while the
 * form is pending (the client never replies: a turn that waited for its reply would never
 * end) and checks the turn ends `cancelled`; resolves with the session and the withdrawn form.
 */
export async function cancelWhileFormPending(
  agent: ClientContext,
  testClient: TestClient,
): Promise<{ sessionId: string; form: Awaited<ReturnType<HeldElicitations['next']>> }> {
  const sessionId = await startSession(agent);
  const response = prompt(agent, sessionId, 'Start.');
  const form = await testClient.forms.next();
  await agent.notify(methods.agent.session.cancel, { sessionId });
  expect(await response).toEqual({ stopReason: 'cancelled' });
  return { sessionId, form };
}
