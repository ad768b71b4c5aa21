import { methods } from '@agentclientprotocol/sdk';
import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest } from '../../src/index.js';
import { initializeClient, newSession, prompt, withServer } from '../support/server-harness.js';
import { createTestClient, WITH_FORMS } from '../support/test-client.js';

const demo = () => ({ model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }) });

describe('the demo conversation, with questions as forms', () => {
  it('asks the four questions as forms scoped to their tool calls, and sums up the answers', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent, pipe }) => {
      await initializeClient(agent, WITH_FORMS);
      const sessionId = await newSession(agent);
      const response = prompt(agent, sessionId, 'Plan a small web service with me.');
      const updates = testClient.updates;

      // 1. A choice with a recommended option: the person keeps the preselected default.
      const language = await testClient.forms.next();
      const languageForm = language.params as QuestionElicitationRequest;
      expect(languageForm).toMatchObject({
        mode: 'form',
        sessionId,
        toolCallId: 'language',
        message: 'Which language should the new service be written in?',
        requestedSchema: {
          title: 'Language',
          required: ['choice'],
          properties: { choice: { default: 'TypeScript' } },
        },
      });
      expect(languageForm.requestedSchema.properties.text).toBeUndefined();
      expect(updates.toolCalls(sessionId)).toEqual([
        {
          sessionUpdate: 'tool_call',
          toolCallId: 'language',
          title: 'Which language should the new service be written in?',
          kind: 'other',
          status: 'in_progress',
          rawInput: expect.objectContaining({ header: 'Language' }),
        },
      ]);
      expect(updates.text(sessionId)).toMatch(/^Hi! I am the dsh demo agent\./);
      language.reply({
        action: 'accept',
        content: { choice: languageForm.requestedSchema.properties.choice?.default as string },
      });

      // 2. A free-form question: a required text field; the answer is trimmed.
      const name = await testClient.forms.next();
      const nameForm = name.params as QuestionElicitationRequest;
      expect(nameForm).toMatchObject({
        toolCallId: 'name',
        message: 'What should the project be called?',
        requestedSchema: { required: ['text'], properties: { text: { minLength: 1 } } },
      });
      expect(nameForm.requestedSchema.properties.choice).toBeUndefined();
      expect(updates.resultText(sessionId, 'language')).toBe('TypeScript');
      name.reply({ action: 'accept', content: { text: '  Harbor  ' } });

      // 3. A choice that takes a typed answer: the typed text wins over the choice.
      const database = await testClient.forms.next();
      const databaseForm = database.params as QuestionElicitationRequest;
      expect(databaseForm).toMatchObject({
        toolCallId: 'database',
        message: 'Which database should Harbor use?',
        requestedSchema: { required: [] },
      });
      expect(Object.keys(databaseForm.requestedSchema.properties)).toEqual(['choice', 'text']);
      database.reply({ action: 'accept', content: { choice: 'PostgreSQL', text: 'CockroachDB' } });

      // 4. A choice only, whose option values differ from their labels.
      const hosting = await testClient.forms.next();
      const hostingForm = hosting.params as QuestionElicitationRequest;
      expect(hostingForm.requestedSchema.properties.choice?.oneOf).toContainEqual(
        expect.objectContaining({ const: 'serverless functions', title: 'Serverless' }),
      );
      hosting.reply({ action: 'accept', content: { choice: 'serverless functions' } });

      expect(await response).toEqual({ stopReason: 'end_turn' });
      expect(testClient.forms.received).toBe(4);
      expect(
        updates.toolCallUpdates(sessionId).map(({ toolCallId, status }) => [toolCallId, status]),
      ).toEqual([
        ['language', 'completed'],
        ['name', 'completed'],
        ['database', 'completed'],
        ['hosting', 'completed'],
      ]);
      expect(updates.resultText(sessionId, 'name')).toBe('Harbor');
      expect(updates.resultText(sessionId, 'database')).toBe('CockroachDB');
      expect(updates.resultText(sessionId, 'hosting')).toBe('serverless functions');
      expect(updates.text(sessionId)).toContain(
        '- Project: Harbor\n- Language: TypeScript\n- Database: CockroachDB\n- Hosting: serverless functions',
      );

      // Each tool call is announced on the wire before its form, and ended after the answer.
      const order = pipe.wire.messages
        .filter((entry) => entry.to === 'client' && 'method' in entry.message)
        .map(({ message }) => {
          const { method, params } = message as {
            method: string;
            params: {
              toolCallId?: string;
              update?: { sessionUpdate: string; toolCallId?: string };
            };
          };
          if (method === methods.client.elicitation.create) return `form:${params.toolCallId}`;
          const update = params.update;
          if (update?.sessionUpdate === 'tool_call') return `call:${update.toolCallId}`;
          if (update?.sessionUpdate === 'tool_call_update') return `end:${update.toolCallId}`;
          return undefined;
        })
        .filter((entry) => entry !== undefined);
      expect(order).toEqual(
        ['language', 'name', 'database', 'hosting'].flatMap((id) => [
          `call:${id}`,
          `form:${id}`,
          `end:${id}`,
        ]),
      );
    });
  });

  it('starts again with the message after its end, asking every question again', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent }) => {
      await initializeClient(agent, WITH_FORMS);
      const sessionId = await newSession(agent);
      const first = prompt(agent, sessionId, 'Start.');
      for (let i = 0; i < 4; i++) {
        (await testClient.forms.next()).reply({ action: 'decline' });
      }
      expect((await first).stopReason).toBe('end_turn');
      const before = testClient.updates.text(sessionId);
      const second = prompt(agent, sessionId, 'Again?');
      const forms = [];
      for (let i = 0; i < 4; i++) {
        const form = await testClient.forms.next();
        forms.push((form.params as { toolCallId?: string }).toolCallId);
        form.reply({ action: 'decline' });
      }
      expect(await second).toEqual({ stopReason: 'end_turn' });
      expect(forms).toEqual(['language#2', 'name#2', 'database#2', 'hosting#2']);
      expect(testClient.updates.text(sessionId).slice(before.length)).toMatch(
        /^Hi! I am the dsh demo agent\./,
      );
    });
  });
});
