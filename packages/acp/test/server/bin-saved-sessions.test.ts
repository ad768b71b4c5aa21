import { statSync } from 'node:fs';
import { methods } from '@agentclientprotocol/sdk';
import {
  removeTemporaryStateFolders,
  sessionFileLines,
  sessionFilePath,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, initializeClient, prompt } from '../../src/testing.js';
import { withBinClient } from '../support/bin-client.js';
import { startBin } from '../support/bin-process.js';
import { rejectionOf } from '../support/rejection-of.js';

afterEach(removeTemporaryStateFolders);

describe('saved sessions, against the bin', () => {
  it('a kill -9 in the middle of a question loses no answer: the next process lists and replays the session, shows the turn cancelled and asks the question again', async () => {
    const stateDir = temporaryStateFolder();
    const cwd = stateDir;
    const args = ['--state-dir', stateDir];

    // The first process: one answer given, killed while the second question is on screen.
    const first = createTestClient();
    const bin = startBin(args);
    const connection = first.app.connect(bin.stream);
    const { agent } = connection;
    await initializeClient(agent);
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
    const turn = prompt(agent, sessionId, 'Plan the shop service');
    (await first.forms.next()).reply({ action: 'accept', content: { choice: 'Go' } });
    const asked = await first.forms.next();
    expect(asked.params).toMatchObject({ toolCallId: 'name' });
    bin.child.kill('SIGKILL');
    expect(await bin.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await rejectionOf(turn);
    connection.close();
    expect(statSync(sessionFilePath(stateDir, sessionId)).mode & 0o777).toBe(0o600);
    expect(statSync(`${stateDir}/sessions`).mode & 0o777).toBe(0o700);

    // The next process.
    const second = createTestClient();
    const { bin: restarted } = await withBinClient(args, second, async (agent, current) => {
      await initializeClient(agent);
      const { sessions } = await agent.request(methods.agent.session.list, { cwd });
      expect(sessions).toEqual([
        { sessionId, cwd, title: 'Plan the shop service', updatedAt: expect.any(String) },
      ]);
      await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      const { updates } = second;
      expect(updates.of(sessionId).all[0]).toEqual({
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text: 'Plan the shop service' },
      });
      expect(updates.resultText(sessionId, 'language')).toBe('Go');
      expect(
        updates.toolCallUpdates(sessionId).map((update) => [update.toolCallId, update.status]),
      ).toEqual([
        ['language', 'completed'],
        ['name', 'failed'],
      ]);
      expect(updates.toolCallUpdates(sessionId)[1]).toMatchObject({
        rawOutput: {
          error: {
            code: 'TURN_CANCELLED',
            message: expect.stringContaining('the agent stopped before the turn ended'),
          },
        },
      });

      // The demo goes on where it stopped: the question the kill cut short comes again.
      const turn = prompt(agent, sessionId, 'Go on.');
      const form = await second.forms.next();
      expect(form.params).toMatchObject({ sessionId, toolCallId: 'name#2' });
      form.reply({ action: 'accept', content: { text: 'shop' } });
      (await second.forms.next()).reply({
        action: 'accept',
        content: { database: 'SQLite', features: ['Automated tests'], license: 'MIT' },
      });
      (await second.forms.next()).reply({ action: 'decline' });
      expect(await turn).toEqual({ stopReason: 'end_turn' });
      expect(updates.text(sessionId)).toContain(
        '- Project: shop\n- Language: Go\n- Database: SQLite\n- Features: Automated tests\n- License: MIT',
      );

      // While this process holds the session, another one cannot load it, and says who does.
      const third = createTestClient();
      await withBinClient(args, third, async (other) => {
        await initializeClient(other);
        const error = await rejectionOf(
          other.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] }),
        );
        expect(error).toMatchObject({ code: -32600, data: { code: 'SESSION_LOCKED', sessionId } });
        expect((error as Error).message).toContain(
          `open in another dsh process (pid ${current.child.pid})`,
        );
      });
    });
    expect(restarted.stderr()).not.toContain('skipped');
    const lines = sessionFileLines(stateDir, sessionId);
    expect(lines.filter((line) => line.type === 'turn-end')).toEqual([
      { v: 1, type: 'turn-end', reason: 'cancelled', interrupted: true },
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
  });
});
