import { methods } from '@agentclientprotocol/sdk';
import {
  removeTemporaryStateFolders,
  STAND_IN_QUESTION,
  sessionFileLines,
  startDeepSeekStandIn,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import { createTestClient, initializeClient, prompt, type TestClient } from '../../src/testing.js';
import { type BinProcess, startBin } from '../support/bin-process.js';
import { withProgramClient } from '../support/program-client.js';
import { rejectionOf } from '../support/rejection-of.js';
import { linesOf } from '../support/session-lines.js';

afterEach(removeTemporaryStateFolders);

// The first process is the bin, killed with SIGKILL; what comes next runs in-process. An editor that
// quits (no kill) is tested in-process: program-resume.test.ts.

/** Starts the bin, opens a session, and runs `op` with it until the test kills the bin. */
async function firstProcess(
  args: readonly string[],
  cwd: string,
  op: (session: { agent: ConnectedAgent; sessionId: string; client: TestClient }) => Promise<void>,
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  const client = createTestClient();
  const bin: BinProcess = startBin(args, env);
  const connection = client.app.connect(bin.stream);
  const { agent } = connection;
  await initializeClient(agent);
  const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  await op({ agent, sessionId, client });
  bin.child.kill('SIGKILL');
  expect(await bin.exited).toEqual({ code: null, signal: 'SIGKILL' });
  connection.close();
  return sessionId;
}
type ConnectedAgent = Parameters<typeof initializeClient>[0];

/** A saved session whose bin was killed while the demo's first question waited. */
async function killedAtFirstQuestion() {
  const stateDir = temporaryStateFolder();
  const cwd = stateDir;
  const args = ['--state-dir', stateDir];
  const sessionId = await firstProcess(args, cwd, async ({ agent, sessionId, client }) => {
    void rejectionOf(prompt(agent, sessionId, 'Plan it'));
    await client.forms.next();
  });
  return { stateDir, cwd, args, sessionId };
}

/**
 * The program run in-process after the kill (what the next process does with the file), loading
 * the session, then runs `op` with its agent and client.
 */
async function loaded(
  killed: Awaited<ReturnType<typeof killedAtFirstQuestion>>,
  op: (agent: ConnectedAgent, client: TestClient) => Promise<void>,
): Promise<void> {
  const { args, sessionId, cwd } = killed;
  const client = createTestClient();
  await withProgramClient(args, client, async (agent) => {
    await initializeClient(agent);
    await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    await op(agent, client);
  });
}

describe('a turn that waited when dsh-acp was killed goes on after session/load', () => {
  it('an approval: asked again for the same call, and the command runs once, after it', async () => {
    const stateDir = temporaryStateFolder();
    const cwd = stateDir;
    const args = ['--state-dir', stateDir];
    const sessionId = await firstProcess(args, cwd, async ({ agent, sessionId, client }) => {
      const planned = prompt(agent, sessionId, 'Plan it');
      (await client.forms.next()).reply({ action: 'decline' });
      (await client.forms.next()).reply({ action: 'decline' });
      (await client.forms.next()).reply({ action: 'decline' });
      (await client.forms.next()).reply({ action: 'decline' });
      expect(await planned).toEqual({ stopReason: 'end_turn' });
      const writing = prompt(agent, sessionId, 'Write it');
      (await client.permissions.next()).reply({
        outcome: { outcome: 'selected', optionId: 'allow_once' },
      });
      const command = await client.permissions.next();
      expect(command.params).toMatchObject({ toolCall: { toolCallId: 'check-plan' } });
      void rejectionOf(writing);
    });

    const second = createTestClient();
    await withProgramClient(args, second, async (agent) => {
      await initializeClient(agent);
      await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      const asked = await second.permissions.next();
      expect(asked.params).toMatchObject({
        sessionId,
        toolCall: { toolCallId: 'check-plan' },
      });
      asked.reply({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
      await vi.waitFor(
        () =>
          expect(
            second.updates
              .toolCallUpdates(sessionId)
              .filter(
                (update) => update.toolCallId === 'check-plan' && update.status === 'completed',
              ),
          ).toHaveLength(1),
        { timeout: 10_000 },
      );
      // The command's output is its content, as for any command.
      expect(JSON.stringify(second.updates.toolCallUpdates(sessionId))).toContain('PLAN.md');
    });
    const lines = sessionFileLines(stateDir, sessionId);
    expect(linesOf(lines, 'posed', 'check-plan')).toHaveLength(2);
    expect(linesOf(lines, 'approval', 'check-plan')).toHaveLength(1);
    expect(linesOf(lines, 'tool-result', 'check-plan')).toEqual([
      expect.objectContaining({ result: expect.objectContaining({ ok: true }) }),
    ]);
    expect(lines.filter((line) => line.type === 'turn-end').map((line) => line.reason)).toEqual([
      'finished',
      'finished',
    ]);
  });

  it('a set of questions: asked again as one form, for the same call, and the turn goes on', async () => {
    const stateDir = temporaryStateFolder();
    const cwd = stateDir;
    const args = ['--state-dir', stateDir];
    const sessionId = await firstProcess(args, cwd, async ({ agent, sessionId, client }) => {
      void rejectionOf(prompt(agent, sessionId, 'Plan it'));
      (await client.forms.next()).reply({ action: 'accept', content: { choice: 'Go' } });
      (await client.forms.next()).reply({ action: 'accept', content: { text: 'shop' } });
      expect((await client.forms.next()).params).toMatchObject({ toolCallId: 'stack' });
    });
    const second = createTestClient();
    await withProgramClient(args, second, async (agent) => {
      await initializeClient(agent);
      await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      const form = await second.forms.next();
      expect(form.params).toMatchObject({ sessionId, toolCallId: 'stack' });
      form.reply({
        action: 'accept',
        content: { database: 'SQLite', features: ['Automated tests'], license: 'MIT' },
      });
      (await second.forms.next()).reply({ action: 'decline' });
      await vi.waitFor(
        () =>
          expect(second.updates.text(sessionId)).toContain(
            '- Project: shop\n- Language: Go\n- Database: SQLite\n- Features: Automated tests\n- License: MIT',
          ),
        { timeout: 10_000 },
      );
    });
    const lines = sessionFileLines(stateDir, sessionId);
    expect(linesOf(lines, 'posed', 'stack')).toHaveLength(2);
    expect(linesOf(lines, 'tool-result', 'stack')).toHaveLength(1);
    expect(linesOf(lines, 'tool-result', 'language')).toHaveLength(1);
    expect(lines.filter((line) => line.type === 'turn-end')).toEqual([
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
  });

  it('a prompt sent instead of an answer ends the turn that went on, and runs as a turn of its own', async () => {
    const killed = await killedAtFirstQuestion();
    const { stateDir, sessionId } = killed;
    await loaded(killed, async (agent, second) => {
      const asked = await second.forms.next();
      expect(asked.params).toMatchObject({ toolCallId: 'language' });
      const turn = prompt(agent, sessionId, 'Something else');
      // The form asked again is withdrawn (the client is told to stop waiting for it), and the
      // new turn asks its own first question (the demo goes on where its script stopped).
      const next = await second.forms.next();
      expect(asked.signal.aborted).toBe(true);
      expect(next.params).toMatchObject({ toolCallId: 'language#2' });
      next.reply({ action: 'decline' });
      for (let more = 0; more < 3; more++) (await second.forms.next()).reply({ action: 'decline' });
      expect(await turn).toEqual({ stopReason: 'end_turn' });
    });
    const lines = sessionFileLines(stateDir, sessionId);
    expect(lines.filter((line) => line.type === 'turn-end')).toEqual([
      { v: 1, type: 'turn-end', reason: 'cancelled' },
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
    // The turn that went on was cancelled by the prompt, not by a crash; the new turn's own
    // question was declined.
    expect(lines.some((line) => line.interrupted === true)).toBe(false);
    expect(
      linesOf(lines, 'tool-result', 'language').map(
        (line) => (line.result as { error?: { code?: string } }).error?.code,
      ),
    ).toEqual(['TURN_CANCELLED', 'ASK_DECLINED']);
  });

  it('a cancel right after a prompt that ends the turn that went on cancels that prompt too', async () => {
    const killed = await killedAtFirstQuestion();
    const { sessionId } = killed;
    await loaded(killed, async (agent, second) => {
      await second.forms.next();
      const turn = prompt(agent, sessionId, 'Something else');
      await agent.notify(methods.agent.session.cancel, { sessionId });
      expect(await turn).toEqual({ stopReason: 'cancelled' });
    });
  });

  it('a session/load again while its question waits: the question stays waiting, and comes again', async () => {
    const killed = await killedAtFirstQuestion();
    const { stateDir, sessionId, cwd } = killed;
    await loaded(killed, async (agent, second) => {
      const first = await second.forms.next();
      expect(first.params).toMatchObject({ toolCallId: 'language' });
      await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      const again = await second.forms.next();
      expect(first.signal.aborted).toBe(true);
      expect(again.params).toMatchObject({ sessionId, toolCallId: 'language' });
      again.reply({ action: 'accept', content: { choice: 'Go' } });
      expect((await second.forms.next()).params).toMatchObject({ toolCallId: 'name' });
    });
    const lines = sessionFileLines(stateDir, sessionId);
    expect(linesOf(lines, 'tool-result', 'language')).toEqual([
      expect.objectContaining({ result: expect.objectContaining({ ok: true, output: 'Go' }) }),
    ]);
  });

  it('against the DeepSeek stand-in: the answer reaches the model with its reasoning passed back intact', async () => {
    const server = await startDeepSeekStandIn();
    try {
      const stateDir = temporaryStateFolder();
      const cwd = stateDir;
      const args = ['--state-dir', stateDir, '--base-url', server.url, '--model', 'deepseek-flash'];
      const env = { DSH_API_KEY: server.apiKey };
      const sessionId = await firstProcess(
        args,
        cwd,
        async ({ agent, sessionId, client }) => {
          void rejectionOf(prompt(agent, sessionId, 'Paint the fence'));
          await client.forms.next();
        },
        env,
      );
      expect(server.requests).toHaveLength(1);
      const second = createTestClient();
      await withProgramClient(
        args,
        second,
        async (agent) => {
          await initializeClient(agent);
          await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
          const form = await second.forms.next();
          expect((form.params as QuestionElicitationRequest).message).toBe(
            STAND_IN_QUESTION.question,
          );
          form.reply({ action: 'accept', content: { choice: 'Blue' } });
          await vi.waitFor(
            () => expect(second.updates.text(sessionId)).toContain('Painting the fence Blue.'),
            { timeout: 10_000 },
          );
        },
        env,
      );
      expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
      const messages = server.requests[1]?.body.messages as Record<string, unknown>[];
      expect(messages.find((message) => message.tool_calls !== undefined)?.reasoning_content).toBe(
        'The person wants a fence painted. I need the colour. I will ask.',
      );
      expect(String(messages.at(-1)?.content)).toContain('Blue');
    } finally {
      await server.close();
    }
  });
});
