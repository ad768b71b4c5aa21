import { statSync } from 'node:fs';
import { methods } from '@agentclientprotocol/sdk';
import {
  removeTemporaryStateFolders,
  sessionFileLines,
  sessionFilePath,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestClient, initializeClient, prompt } from '../../src/testing.js';
import { withBinClient } from '../support/bin-client.js';
import { startBin } from '../support/bin-process.js';
import { withProgramClient } from '../support/program-client.js';
import { rejectionOf } from '../support/rejection-of.js';

afterEach(removeTemporaryStateFolders);

describe('saved sessions, against the bin', () => {
  it('a kill -9 in the middle of a question loses no answer: the next process lists and replays the session, and right after the load asks that question again, for the same call, and the turn goes on', async () => {
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
      // The replay tells what was answered; the question the kill cut short is not told as failed.
      expect(
        updates.toolCallUpdates(sessionId).map((update) => [update.toolCallId, update.status]),
      ).toEqual([['language', 'completed']]);

      // Right after the load's response, the turn goes on: the same question, for the same call.
      const form = await second.forms.next();
      expect(form.params).toMatchObject({ sessionId, toolCallId: 'name' });
      form.reply({ action: 'accept', content: { text: 'shop' } });
      (await second.forms.next()).reply({
        action: 'accept',
        content: { database: 'SQLite', features: ['Automated tests'], license: 'MIT' },
      });
      (await second.forms.next()).reply({ action: 'decline' });
      await vi.waitFor(
        () =>
          expect(updates.text(sessionId)).toContain(
            '- Project: shop\n- Language: Go\n- Database: SQLite\n- Features: Automated tests\n- License: MIT',
          ),
        { timeout: 10_000 },
      );
      expect(updates.resultText(sessionId, 'name')).toBe('shop');

      // The next prompt is a turn of its own, after the one that went on (the demo's edit and
      // command: both refused here).
      const next = prompt(agent, sessionId, 'Write it.');
      (await second.permissions.next()).reply({ outcome: { outcome: 'cancelled' } });
      (await second.permissions.next()).reply({ outcome: { outcome: 'cancelled' } });
      expect(await next).toEqual({ stopReason: 'end_turn' });

      // While this process holds the session, another one cannot load it, and says who does.
      // (The other one runs in-process: what matters is that this process holds the session.)
      const third = createTestClient();
      await withProgramClient(args, third, async (other) => {
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
    // The turn the kill cut short was never closed as cancelled: it went on and finished.
    expect(lines.filter((line) => line.type === 'turn-end')[0]).toEqual({
      v: 1,
      type: 'turn-end',
      reason: 'finished',
    });
    expect(lines.some((line) => line.interrupted === true)).toBe(false);
    expect(
      lines.filter((line) => line.type === 'tool-result' && line.toolCallId === 'name'),
    ).toHaveLength(1);
  });
});
