import { methods } from '@agentclientprotocol/sdk';
import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import type { QuestionElicitationRequest, QuestionsElicitationRequest } from '../../src/index.js';
import { createTestClient, prompt, startSession, withServer } from '../../src/testing.js';

const demo = () => ({ model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }) });

describe('the demo conversation, with questions as forms', () => {
  it('asks its questions as forms scoped to their tool calls, three of them in one form, and sums up the answers', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent, pipe }) => {
      const sessionId = await startSession(agent);
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

      // 3. Three questions at once: one form, a property per question, named by its id, and
      // next to options that take typed text an "Other" companion marked in `_meta`.
      const stack = await testClient.forms.next();
      const stackForm = stack.params as QuestionsElicitationRequest;
      const other = (questionId: string, description: string) => ({
        type: 'string',
        title: 'Other',
        description,
        maxLength: 100_000,
        _meta: { _askUserQuestionCustomAnswer: { questionId, isCustomAnswer: true } },
      });
      expect(stackForm).toEqual({
        mode: 'form',
        sessionId,
        toolCallId: 'stack',
        message: 'The stack',
        requestedSchema: {
          type: 'object',
          title: 'The stack',
          properties: {
            database: {
              type: 'string',
              title: 'Database',
              description: 'Which database should Harbor use?',
              oneOf: [
                {
                  const: 'PostgreSQL',
                  title: 'PostgreSQL',
                  description: 'Relational and dependable.',
                },
                {
                  const: 'SQLite',
                  title: 'SQLite',
                  description: 'A single file, with no server to run.',
                },
                { const: 'MongoDB', title: 'MongoDB', description: 'Documents instead of tables.' },
              ],
            },
            'database:custom': other(
              'database',
              'Type your own answer instead of choosing one above (optional).',
            ),
            features: {
              type: 'array',
              title: 'Features',
              description: 'Which features should it start with? Choose one or more.',
              items: {
                anyOf: [
                  {
                    const: 'Authentication',
                    title: 'Authentication',
                    description: 'Sign-in and sessions.',
                  },
                  {
                    const: 'Automated tests',
                    title: 'Automated tests',
                    description: 'A test suite run on every change.',
                  },
                  {
                    const: 'API docs',
                    title: 'API docs',
                    description: 'Reference pages built from the code.',
                  },
                  {
                    const: 'Metrics',
                    title: 'Metrics',
                    description: 'Counters and timings for a dashboard.',
                  },
                ],
              },
            },
            'features:custom': other(
              'features',
              'Type an answer of your own, next to the options you chose (optional).',
            ),
            license: {
              type: 'string',
              title: 'License',
              description: 'Under which license should the code be published?',
              oneOf: [
                { const: 'MIT', title: 'MIT', description: 'Short and permissive.' },
                {
                  const: 'Apache-2.0',
                  title: 'Apache-2.0',
                  description: 'Permissive, with a patent grant.',
                },
                { const: 'none (not published)', title: 'Not published' },
              ],
              default: 'MIT',
            },
          },
          required: ['license'],
        },
      });
      stack.reply({
        action: 'accept',
        content: {
          database: 'PostgreSQL',
          'database:custom': 'CockroachDB',
          features: ['Metrics', 'Authentication'],
          'features:custom': ' audit log ',
          license: 'MIT',
        },
      });

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
        ['stack', 'completed'],
        ['hosting', 'completed'],
      ]);
      expect(updates.resultText(sessionId, 'name')).toBe('Harbor');
      // The model reads the set as JSON keyed by id: chosen options apart from typed text.
      expect(JSON.parse(updates.resultText(sessionId, 'stack') ?? '')).toEqual({
        database: { typed: 'CockroachDB' },
        features: { chosen: ['Authentication', 'Metrics'], typed: 'audit log' },
        license: { chosen: ['MIT'] },
      });
      expect(updates.resultText(sessionId, 'hosting')).toBe('serverless functions');
      expect(updates.text(sessionId)).toContain(
        '- Project: Harbor\n- Language: TypeScript\n- Database: CockroachDB\n- Features: Authentication, Metrics, audit log\n- License: MIT\n- Hosting: serverless functions',
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
        ['language', 'name', 'stack', 'hosting'].flatMap((id) => [
          `call:${id}`,
          `form:${id}`,
          `end:${id}`,
        ]),
      );
    });
  });

  it('starts again after its second part, asking every question again', async () => {
    const testClient = createTestClient();
    await withServer(demo(), testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      const first = prompt(agent, sessionId, 'Start.');
      for (let i = 0; i < 4; i++) {
        (await testClient.forms.next()).reply({ action: 'decline' });
      }
      expect((await first).stopReason).toBe('end_turn');
      // The next message plays the demo's second part (without workspace tools here, each of
      // its calls fails at once); the one after starts the demo again.
      expect(await prompt(agent, sessionId, 'Write it.')).toEqual({ stopReason: 'end_turn' });
      const before = testClient.updates.text(sessionId);
      const second = prompt(agent, sessionId, 'Again?');
      const forms = [];
      for (let i = 0; i < 4; i++) {
        const form = await testClient.forms.next();
        forms.push((form.params as { toolCallId?: string }).toolCallId);
        form.reply({ action: 'decline' });
      }
      expect(await second).toEqual({ stopReason: 'end_turn' });
      expect(forms).toEqual(['language#2', 'name#2', 'stack#2', 'hosting#2']);
      expect(testClient.updates.text(sessionId).slice(before.length)).toMatch(
        /^Hi! I am the dsh demo agent\./,
      );
    });
  });
});
