import type { CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import {
  createTestClient,
  initializeClient,
  newSession,
  prompt,
  startSession,
} from '../../src/testing.js';
import { withProgramClient } from '../support/program-client.js';

describe('the dsh-acp program, as an editor starts it (in-process)', () => {
  it('holds the whole offline demo conversation with its questions as forms, over its input and output', async () => {
    const testClient = createTestClient();
    const { program: bin } = await withProgramClient([], testClient, async (agent) => {
      const init = await initializeClient(agent);
      expect(init.agentInfo).toMatchObject({ name: 'dsh-acp' });
      const sessionId = await newSession(agent);
      const response = prompt(agent, sessionId, 'Plan a service with me.');
      const replies: Record<string, CreateElicitationResponse> = {
        // The preselected recommended option.
        language: { action: 'accept', content: { choice: 'TypeScript' } },
        name: { action: 'accept', content: { text: 'Harbor' } },
        // Three questions in one form: a typed answer next to a choice, ticks, a default kept.
        stack: {
          action: 'accept',
          content: {
            'database:custom': 'CockroachDB',
            features: ['API docs', 'Metrics'],
            license: 'MIT',
          },
        },
        hosting: { action: 'accept', content: { choice: 'containers' } },
      };
      for (const toolCallId of Object.keys(replies)) {
        const form = await testClient.forms.next();
        const params = form.params as QuestionElicitationRequest;
        expect(params).toMatchObject({ mode: 'form', sessionId, toolCallId });
        if (toolCallId === 'language') {
          expect(params.requestedSchema.properties.choice?.default).toBe('TypeScript');
        }
        if (toolCallId === 'stack') {
          expect(Object.keys(params.requestedSchema.properties)).toEqual([
            'database',
            'database:custom',
            'features',
            'features:custom',
            'license',
          ]);
        }
        form.reply(replies[toolCallId] as CreateElicitationResponse);
      }
      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(testClient.updates.text(sessionId)).toContain(
        '- Project: Harbor\n- Language: TypeScript\n- Database: CockroachDB\n- Features: API docs, Metrics\n- License: MIT\n- Hosting: containers',
      );
    });
    expect(bin.stderr()).toContain('dsh-acp: serving built-in demo (offline, scripted)');
    expect(bin.stderr()).toContain(
      'dsh-acp-test-client 1.0.0 connected (protocol 1; questions as forms)',
    );
    // Every line on stdout was JSON-RPC (checked by withProgramClient), and there were many.
    expect(bin.lines.all.length).toBeGreaterThan(20);
  });

  it('declines, dismissals and malformed answers reach the model as ASK_DECLINED, ASK_CANCELLED and INVALID_ANSWER', async () => {
    const testClient = createTestClient();
    await withProgramClient([], testClient, async (agent) => {
      const sessionId = await startSession(agent);
      const response = prompt(agent, sessionId, 'Start.');
      (await testClient.forms.next()).reply({ action: 'decline' });
      (await testClient.forms.next()).reply({ action: 'cancel' });
      (await testClient.forms.next()).reply({ action: 'accept', content: { choice: 'Oracle' } });
      (await testClient.forms.next()).reply({ action: 'accept', content: { choice: 3 } } as never);
      expect(await response).toEqual({ stopReason: 'end_turn' });
      const codes = testClient.updates
        .toolCallUpdates(sessionId)
        .map((update) => (update.rawOutput as { error?: { code: string } }).error?.code);
      expect(codes).toEqual(['ASK_DECLINED', 'ASK_CANCELLED', 'INVALID_ANSWER', 'INVALID_ANSWER']);
    });
  });
});
