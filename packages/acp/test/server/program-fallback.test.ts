import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, startSession } from '../../src/testing.js';
import { approveAllClient } from '../support/approve-all-client.js';
import { fixture } from '../support/bin-process.js';
import { DEMO_LANGUAGE_CALL } from '../support/demo-language-call.js';
import { withProgramClient } from '../support/program-client.js';

describe('a client without form elicitation, against the dsh-acp program', () => {
  it('gets no question by default, even when it answers permission requests by itself', async () => {
    const { testClient, stop } = approveAllClient();
    try {
      await withProgramClient([], testClient, async (agent) => {
        const sessionId = await startSession(agent, {});
        expect(await prompt(agent, sessionId, 'Start.')).toEqual({ stopReason: 'end_turn' });
        expect(testClient.permissions.received).toBe(0);
        expect(
          testClient.updates.toolCallUpdates(sessionId).map((update) => update.status),
        ).toEqual(['failed', 'failed', 'failed', 'failed']);
        expect(testClient.updates.text(sessionId)).toContain('- Language: (not chosen)');
        expect(testClient.updates.text(sessionId)).toContain('- Hosting: (not chosen)');
      });
    } finally {
      stop();
    }
  });

  it('with --questions-as-permissions, gets the demo question with options as session/request_permission', async () => {
    const testClient = createTestClient({ handlesForms: false });
    await withProgramClient(['--questions-as-permissions'], testClient, async (agent) => {
      const sessionId = await startSession(agent, {});
      const response = prompt(agent, sessionId, 'Start.');
      const permission = await testClient.permissions.next();
      expect(permission.params).toMatchObject({
        sessionId,
        toolCall: DEMO_LANGUAGE_CALL,
      });
      expect(permission.params.options.map((option) => option.name)).toEqual([
        'TypeScript',
        'Go',
        'Python',
        'Rust',
      ]);
      permission.reply({ outcome: { outcome: 'selected', optionId: 'option-3' } });
      // The free-form question and the three asked at once (one takes several choices) fail
      // without reaching the client; the last question is a permission again.
      const hosting = await testClient.permissions.next();
      expect(hosting.params.toolCall.toolCallId).toBe('hosting');
      hosting.reply({ outcome: { outcome: 'selected', optionId: 'option-0' } });
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(testClient.permissions.received).toBe(2);
      expect(testClient.updates.resultText(sessionId, 'language')).toBe('Rust');
      expect(testClient.updates.text(sessionId)).toContain('- Language: Rust');
      expect(testClient.updates.text(sessionId)).toContain('- Hosting: containers');
    });
  });

  it('a free-form question (--script) fails with UNSUPPORTED, and nothing is sent to the client', async () => {
    const testClient = createTestClient({ handlesForms: false });
    await withProgramClient(
      ['--script', fixture('one-question.json')],
      testClient,
      async (agent) => {
        const sessionId = await startSession(agent, { elicitation: {} });
        expect(await prompt(agent, sessionId, 'Ask me.')).toEqual({ stopReason: 'end_turn' });
        expect(testClient.updates.toolCalls(sessionId)).toMatchObject([
          { toolCallId: 'token', title: 'What is your token?', status: 'in_progress' },
        ]);
        expect(testClient.updates.toolCallUpdates(sessionId)).toMatchObject([
          { toolCallId: 'token', status: 'failed', rawOutput: { error: { code: 'UNSUPPORTED' } } },
        ]);
        expect(testClient.updates.text(sessionId)).toBe('One question.You said nothing.');
        expect(testClient.permissions.received).toBe(0);
      },
    );
  });
});
