import { methods } from '@agentclientprotocol/sdk';
import {
  removeTemporaryStateFolders,
  sessionFileLines,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, initializeClient, prompt } from '../../src/testing.js';
import { withProgramClient } from '../support/program-client.js';
import { rejectionOf } from '../support/rejection-of.js';
import { linesOf } from '../support/session-lines.js';

afterEach(removeTemporaryStateFolders);

// After a kill -9, against the bin: bin-resume.test.ts.
describe('a turn that waited when its editor quit goes on after session/load, against the dsh-acp program', () => {
  it('an editor that quits while a question waits: the question waits in the file, and comes again at the next load', async () => {
    const stateDir = temporaryStateFolder();
    const cwd = stateDir;
    const args = ['--state-dir', stateDir];
    const first = createTestClient();
    const { result: sessionId } = await withProgramClient(args, first, async (agent) => {
      await initializeClient(agent);
      const { sessionId: id } = await agent.request(methods.agent.session.new, {
        cwd,
        mcpServers: [],
      });
      void rejectionOf(prompt(agent, id, 'Plan it'));
      (await first.forms.next()).reply({ action: 'accept', content: { choice: 'Go' } });
      expect((await first.forms.next()).params).toMatchObject({ toolCallId: 'name' });
      return id;
    });
    // The editor went away (its end of the pipe closed): nothing was recorded for the question.
    const lines = sessionFileLines(stateDir, sessionId);
    expect(lines.at(-1)).toEqual({ v: 1, type: 'posed', toolCallId: 'name', kind: 'question' });

    const second = createTestClient();
    await withProgramClient(args, second, async (agent) => {
      await initializeClient(agent);
      await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      const form = await second.forms.next();
      expect(form.params).toMatchObject({ sessionId, toolCallId: 'name' });
      form.reply({ action: 'accept', content: { text: 'shop' } });
      expect((await second.forms.next()).params).toMatchObject({ toolCallId: 'stack' });
    });
    expect(linesOf(sessionFileLines(stateDir, sessionId), 'tool-result', 'name')).toEqual([
      expect.objectContaining({ result: expect.objectContaining({ ok: true, output: 'shop' }) }),
    ]);
  });
});
