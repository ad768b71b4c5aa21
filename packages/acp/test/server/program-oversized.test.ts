import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_MESSAGE_BYTES, methods } from '@agentclientprotocol/sdk';
import { removeWorkFolders, workFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, newSession, prompt, startSession } from '../../src/testing.js';
import { fixture } from '../support/bin-process.js';
import { withProgramClient } from '../support/program-client.js';

describe('a line over the 32 MiB message limit, against the dsh-acp program', () => {
  it('is refused with an error to its sender; the connection and the other sessions go on', async () => {
    const testClient = createTestClient();
    const { program: bin } = await withProgramClient(
      ['--script', fixture('one-question.json')],
      testClient,
      async (agent, program) => {
        const waiting = await startSession(agent);
        const response = prompt(agent, waiting, 'Ask me.');
        const form = await testClient.forms.next();

        const text = 'x'.repeat(DEFAULT_MAX_MESSAGE_BYTES);
        program.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 'huge', method: methods.agent.session.prompt, params: { sessionId: waiting, prompt: [{ type: 'text', text }] } })}\n`,
        );
        // Lines are handled in order: once a later request is answered, the refusal is out.
        const other = await newSession(agent);
        const refusal = program.lines.all
          .map((line) => JSON.parse(line) as { id?: unknown })
          .find((message) => message.id === 'huge');
        expect(refusal).toMatchObject({
          id: 'huge',
          error: {
            code: -32600,
            data: { code: 'MESSAGE_TOO_LARGE', maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES },
          },
        });

        // The pending prompt is answered, and another session runs a whole turn.
        form.reply({ action: 'accept', content: { text: 'blue' } });
        expect(await response).toEqual({ stopReason: 'end_turn' });
        const next = prompt(agent, other, 'Ask me.');
        (await testClient.forms.next()).reply({ action: 'decline' });
        expect(await next).toEqual({ stopReason: 'end_turn' });
      },
    );
    expect(bin.stderr()).toMatch(
      /dsh-acp: refused request "huge": \d+ bytes, over the 33554432-byte limit\n/,
    );
  });
});

afterEach(removeWorkFolders);

/**
 * A script whose first step asks 4 questions of 10,000 long options at once: about 38 MiB as a
 * form, over the 32 MiB limit by 6 MiB, though each question alone is far under it. (It asked
 * 10 of them, 95 MiB, which proved no more and made this the slowest test of the package: every
 * byte is written, parsed, checked and counted.)
 */
function hugeQuestionsScript(): string {
  const folder = workFolder('dsh-acp-huge-form-');
  const questions = Array.from({ length: 4 }, (_, question) => ({
    id: `q${question}`,
    question: `Question ${question}?`,
    options: Array.from({ length: 10_000 }, (_, option) => ({
      label: `${option} ${'x'.repeat(480)}`,
    })),
  }));
  const script = {
    steps: [
      {
        text: 'Many questions.',
        toolCalls: [{ id: 'huge', name: 'ask_user_question', arguments: { questions } }],
      },
      { text: 'Asked.' },
    ],
  };
  const path = join(folder, 'huge-questions.json');
  writeFileSync(path, JSON.stringify(script));
  return path;
}

describe('what the dsh-acp program sends, against the 32 MiB limit of the SDK client reading it', () => {
  it('refuses a form over the limit with INVALID_REQUEST instead of sending it; the connection goes on', async () => {
    const testClient = createTestClient();
    await withProgramClient(
      ['--no-history', '--script', hugeQuestionsScript()],
      testClient,
      async (agent, program) => {
        const sessionId = await startSession(agent);
        // Before, the SDK client failed on the form line and the connection, with every session, was lost.
        expect(await prompt(agent, sessionId, 'Ask me.')).toEqual({ stopReason: 'end_turn' });
        expect(testClient.forms.received).toBe(0);
        const failed = testClient.updates
          .of(sessionId)
          .all.find(
            (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'failed',
          );
        expect(JSON.stringify(failed)).toMatch(
          /would make a form of \d+(\.\d)? MiB, over the 32 MiB limit.*\(INVALID_REQUEST\)/,
        );
        for (const line of program.lines.all) {
          expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(DEFAULT_MAX_MESSAGE_BYTES);
        }
        // The same connection still serves a new session.
        expect(await newSession(agent)).toEqual(expect.any(String));
      },
    );
  });
});
