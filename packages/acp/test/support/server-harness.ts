import { type ClientContext, methods } from '@agentclientprotocol/sdk';
import { expect } from 'vitest';
import { type HeldElicitations, prompt, startSession, type TestClient } from '../../src/testing.js';

/**
 * Starts a session and a turn whose first step shows a form, sends `session/cancel` while the
 * form is pending (the client never replies) and checks the turn ends `cancelled` within
 * `withinMs`; resolves with the session and the withdrawn form.
 */
export async function cancelWhileFormPending(
  agent: ClientContext,
  testClient: TestClient,
  withinMs: number,
): Promise<{ sessionId: string; form: Awaited<ReturnType<HeldElicitations['next']>> }> {
  const sessionId = await startSession(agent);
  const response = prompt(agent, sessionId, 'Start.');
  const form = await testClient.forms.next();
  const started = performance.now();
  await agent.notify(methods.agent.session.cancel, { sessionId });
  expect(await response).toEqual({ stopReason: 'cancelled' });
  expect(performance.now() - started).toBeLessThan(withinMs);
  return { sessionId, form };
}
