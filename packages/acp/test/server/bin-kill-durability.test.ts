// kill -9 at random instants while 200 sessions answer their questions at once, over the real
// bin's pipes: every answer the agent went on with (its tool result was streamed to the
// client) is in the session's file after the kill, and every file loads (a torn last line is
// recovered). What is asserted holds for any instant; the instants vary from run to run.
import { client, methods } from '@agentclientprotocol/sdk';
import { openSessionStore } from 'dsh-agent';
import { removeTemporaryStateFolders, temporaryStateFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import { initializeClient } from '../../src/testing.js';
import { fixture, startBin } from '../support/bin-process.js';

afterEach(removeTemporaryStateFolders);

const SESSIONS = 200;
const ROUNDS = 2;

const answerFor = (sessionId: string) => `answer for ${sessionId}`;

/**
 * Runs `SESSIONS` sessions at once on a bin saving in `stateDir`, answering every question at
 * once, and kills the bin with SIGKILL when `killAt` tool results have been streamed.
 * Resolves with the sessions whose answer the agent went on with, and every session made.
 */
async function killDuringSessions(stateDir: string, killAt: number) {
  const bin = startBin(['--script', fixture('one-question.json'), '--state-dir', stateDir]);
  const acknowledged = new Set<string>();
  const app = client({ name: 'kill-test-client' })
    .onRequest(methods.client.elicitation.create, ({ params }) => ({
      action: 'accept' as const,
      content: { text: answerFor((params as QuestionElicitationRequest).sessionId) },
    }))
    .onNotification(methods.client.session.update, ({ params }) => {
      const { update } = params;
      if (update.sessionUpdate !== 'tool_call_update' || update.status !== 'completed') return;
      acknowledged.add(params.sessionId);
      if (acknowledged.size === killAt) bin.child.kill('SIGKILL');
    });
  const connection = app.connect(bin.stream);
  const { agent } = connection;
  await initializeClient(agent);
  const created: string[] = [];
  const turns = Array.from({ length: SESSIONS }, async () => {
    const { sessionId } = await agent.request(methods.agent.session.new, {
      cwd: stateDir,
      mcpServers: [],
    });
    created.push(sessionId);
    await agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'Ask me.' }],
    });
  });
  // Each turn ends, or fails when the process is killed under it.
  await Promise.allSettled(turns);
  expect(await bin.exited).toEqual({ code: null, signal: 'SIGKILL' });
  connection.close();
  // Notifications read from the pipe after the kill were sent before it: they count too.
  return { acknowledged: new Set(acknowledged), created };
}

describe('kill -9 during many sessions, against the bin', () => {
  it(`keeps every answer the agent went on with, across ${ROUNDS} kills at random instants among ${SESSIONS} sessions`, async () => {
    const stateDir = temporaryStateFolder();
    const store = openSessionStore({ dir: stateDir });
    const acknowledged: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Somewhere between the first answer and the last, different each round.
      const killAt = 1 + Math.floor(Math.random() * (SESSIONS - 1));
      const run = await killDuringSessions(stateDir, killAt);
      expect(run.acknowledged.size).toBeGreaterThanOrEqual(killAt);
      acknowledged.push(...run.acknowledged);
    }
    // Every file left behind loads, whatever instant the kill came at; each answer the agent
    // went on with is in it.
    const listed = await store.list({ cwd: stateDir });
    expect(listed.map(({ id }) => id)).toEqual(expect.arrayContaining(acknowledged));
    const missing: string[] = [];
    for (const { id } of listed) {
      const session = await store.open(id);
      try {
        const answered = session.entries.some(
          (entry) =>
            entry.type === 'tool-result' &&
            entry.result.ok &&
            entry.result.output === answerFor(id),
        );
        if (acknowledged.includes(id) && !answered) missing.push(id);
      } finally {
        await session.close();
      }
    }
    expect(missing).toEqual([]);
    // Two starts of the bin, 400 sessions saved, then every file opened again: 5-8 s alone,
    // 17 s at a load of 15 on two cores, near the 20 s default.
  }, 60_000);
});
