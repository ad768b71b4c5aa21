import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { recordingModel } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, startSession, withServer } from '../../src/testing.js';
import { approveAllClient } from '../support/approve-all-client.js';
import { DEMO_LANGUAGE_CALL } from '../support/demo-language-call.js';

describe('a client without form elicitation, by default', () => {
  it('gets no question, even one that answers every permission request by itself: no answer reaches the model', async () => {
    const model = recordingModel(createScriptedModel(DEMO_SCRIPT, { name: 'demo' }));
    const { testClient, stop } = approveAllClient();
    try {
      await withServer({ model }, testClient, async ({ agent, pipe, log }) => {
        const sessionId = await startSession(agent, {});
        expect(log.join('\n')).toContain('no form elicitation: the model asks in its replies');
        expect(await prompt(agent, sessionId, 'Start.')).toEqual({ stopReason: 'end_turn' });
        expect(pipe.wire.requestsToClient('session/request_permission')).toEqual([]);
        expect(pipe.wire.requestsToClient('elicitation/create')).toEqual([]);
        const { updates } = testClient;
        const ends = updates.toolCallUpdates(sessionId);
        expect(ends.map((update) => update.toolCallId)).toEqual([
          'language',
          'name',
          'stack',
          'hosting',
        ]);
        for (const end of ends) {
          expect(end).toMatchObject({
            status: 'failed',
            rawOutput: {
              error: {
                code: 'UNSUPPORTED',
                message: expect.stringContaining('ask the question in your reply text'),
              },
            },
          });
        }
        // The model got every question back unanswered.
        expect(updates.text(sessionId)).toContain(
          '- Project: (no name given)\n- Language: (not chosen)\n- Database: (not chosen)',
        );
        expect(updates.text(sessionId)).toContain('- Hosting: (not chosen)');
        for (const request of model.requests) {
          const ask = request.tools.find((tool) => tool.name === 'ask_user_question');
          expect(ask?.description).toContain(
            'This UI cannot show questions: do not call this tool',
          );
          const results = request.messages.filter((message) => message.role === 'tool');
          for (const result of results) expect(JSON.stringify(result)).toContain('UNSUPPORTED');
        }
      });
    } finally {
      stop();
    }
  });
});

describe('a client without form elicitation, with questionsAsPermissions', () => {
  it('gets questions with options as permission requests, and a free-form question fails with UNSUPPORTED', async () => {
    const model = recordingModel(createScriptedModel(DEMO_SCRIPT, { name: 'demo' }));
    // It does not even handle elicitation/create: a form sent to it would fail the test.
    const testClient = createTestClient({ handlesForms: false });
    await withServer(
      { model, questionsAsPermissions: true },
      testClient,
      async ({ agent, pipe }) => {
        const sessionId = await startSession(agent, { elicitation: { url: {} } });
        const response = prompt(agent, sessionId, 'Start.');
        const { updates } = testClient;

        const language = await testClient.permissions.next();
        expect(language.params).toEqual({
          sessionId,
          toolCall: DEMO_LANGUAGE_CALL,
          options: [
            { optionId: 'option-0', name: 'TypeScript', kind: 'allow_once' },
            { optionId: 'option-1', name: 'Go', kind: 'allow_once' },
            { optionId: 'option-2', name: 'Python', kind: 'allow_once' },
            { optionId: 'option-3', name: 'Rust', kind: 'allow_once' },
          ],
        });
        language.reply({ outcome: { outcome: 'selected', optionId: 'option-1' } });

        // The free-form question is announced and fails at once: nothing is sent for it. So do
        // the three questions asked at once, one of which takes several choices.
        const hosting = await testClient.permissions.next();
        const ends = updates.toolCallUpdates(sessionId);
        expect(ends.find((u) => u.toolCallId === 'name')).toMatchObject({
          status: 'failed',
          rawOutput: { error: { code: 'UNSUPPORTED' } },
        });
        expect(ends.find((u) => u.toolCallId === 'stack')).toMatchObject({
          status: 'failed',
          rawOutput: {
            error: {
              code: 'UNSUPPORTED',
              message: expect.stringContaining('`features` takes several choices'),
            },
          },
        });
        expect(hosting.params.toolCall).toEqual({
          toolCallId: 'hosting',
          title: 'Where will the service run?',
        });
        hosting.reply({ outcome: { outcome: 'cancelled' } });

        expect(await response).toEqual({ stopReason: 'end_turn' });
        expect(testClient.permissions.received).toBe(2);
        expect(pipe.wire.requestsToClient('elicitation/create')).toEqual([]);
        expect(updates.resultText(sessionId, 'language')).toBe('Go');
        expect(
          updates.toolCallUpdates(sessionId).find((u) => u.toolCallId === 'hosting'),
        ).toMatchObject({ status: 'failed', rawOutput: { error: { code: 'ASK_CANCELLED' } } });
        expect(updates.text(sessionId)).toContain(
          '- Project: (no name given)\n- Language: Go\n- Database: (not chosen)',
        );

        // The model was told what this client can show, at every request.
        for (const request of model.requests) {
          const ask = request.tools.find((tool) => tool.name === 'ask_user_question');
          expect(ask?.description).toContain('This UI can only show questions with options');
          expect(ask?.description).toContain('This UI cannot take a typed answer');
        }
      },
    );
  });

  it('with form elicitation, the model is told nothing is out of reach', async () => {
    const model = recordingModel(createScriptedModel({ steps: [{ text: 'Hello.' }] }));
    const testClient = createTestClient();
    await withServer({ model }, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent, { elicitation: { form: {} } });
      await prompt(agent, sessionId, 'Hi.');
      const ask = model.requests[0]?.tools.find((tool) => tool.name === 'ask_user_question');
      expect(ask?.description).toBeDefined();
      expect(ask?.description).not.toContain('This UI can only show');
      expect(ask?.description).not.toContain('This UI cannot');
    });
  });

  it('gets several questions with one choice each as permission requests, one after another', async () => {
    const model = createScriptedModel({
      steps: [
        {
          toolCalls: [
            {
              id: 'pair',
              name: 'ask_user_question',
              arguments: {
                questions: [
                  {
                    id: 'db',
                    question: 'Which database?',
                    options: [{ label: 'PostgreSQL', value: 'pg' }, { label: 'SQLite' }],
                  },
                  {
                    id: 'ci',
                    question: 'Which CI?',
                    allow_custom: false,
                    options: [{ label: 'GitHub Actions' }, { label: 'None' }],
                  },
                ],
              },
            },
          ],
        },
        {
          text: 'db={{answer:pair.db|-}} ci={{answer:pair.ci|-}}',
          toolCalls: [
            {
              id: 'again',
              name: 'ask_user_question',
              arguments: {
                questions: [
                  { id: 'a', question: 'First?', options: [{ label: 'Yes' }, { label: 'No' }] },
                  { id: 'b', question: 'Second?', options: [{ label: 'Yes' }, { label: 'No' }] },
                ],
              },
            },
          ],
        },
        { text: ' a={{answer:again.a|-}}' },
      ],
    });
    const testClient = createTestClient({ handlesForms: false });
    await withServer(
      { model, questionsAsPermissions: true },
      testClient,
      async ({ agent, pipe }) => {
        const sessionId = await startSession(agent, {});
        const response = prompt(agent, sessionId, 'Start.');
        const db = await testClient.permissions.next();
        expect(db.params).toEqual({
          sessionId,
          toolCall: { toolCallId: 'pair', title: 'Which database?' },
          options: [
            { optionId: 'option-0', name: 'PostgreSQL', kind: 'allow_once' },
            { optionId: 'option-1', name: 'SQLite', kind: 'allow_once' },
          ],
        });
        // The second is sent only once the first is answered.
        expect(testClient.permissions.received).toBe(1);
        db.reply({ outcome: { outcome: 'selected', optionId: 'option-0' } });
        const ci = await testClient.permissions.next();
        expect(ci.params.toolCall).toEqual({ toolCallId: 'pair', title: 'Which CI?' });
        ci.reply({ outcome: { outcome: 'selected', optionId: 'option-1' } });
        // A dismissed first question fails the set: the second is never sent.
        (await testClient.permissions.next()).reply({ outcome: { outcome: 'cancelled' } });
        expect(await response).toEqual({ stopReason: 'end_turn' });
        const { updates } = testClient;
        expect(JSON.parse(updates.resultText(sessionId, 'pair') ?? '')).toEqual({
          db: { chosen: ['pg'] },
          ci: { chosen: ['None'] },
        });
        expect(updates.text(sessionId)).toContain('db=pg ci=None');
        expect(updates.text(sessionId)).toContain('a=-');
        expect(
          updates.toolCallUpdates(sessionId).find((u) => u.toolCallId === 'again'),
        ).toMatchObject({ status: 'failed', rawOutput: { error: { code: 'ASK_CANCELLED' } } });
        expect(testClient.permissions.received).toBe(3);
        expect(pipe.wire.requestsToClient('elicitation/create')).toEqual([]);
      },
    );
  });
});
