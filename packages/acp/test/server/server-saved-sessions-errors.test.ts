import { readFileSync, writeFileSync } from 'node:fs';
import { methods } from '@agentclientprotocol/sdk';
import { createScriptedModel, DEMO_SCRIPT, openSessionStore } from 'dsh-agent';
import {
  removeTemporaryStateFolders,
  sessionFilePath,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestClient,
  initializeClient,
  newSession,
  prompt,
  startSession,
  withServer,
} from '../../src/testing.js';
import { rejectionOf } from '../support/rejection-of.js';

afterEach(removeTemporaryStateFolders);

describe('saved sessions', () => {
  it('answers -32002 for a session that is not on disk, whatever the id', async () => {
    const testClient = createTestClient();
    const sessionStore = openSessionStore({ dir: temporaryStateFolder() });
    await withServer(
      { model: createScriptedModel(DEMO_SCRIPT), sessionStore },
      testClient,
      async ({ agent }) => {
        await initializeClient(agent);
        // A session never prompted has nothing saved.
        const empty = await newSession(agent);
        await agent.request(methods.agent.session.close, { sessionId: empty });
        for (const sessionId of [
          empty,
          '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b',
          '../../etc/passwd',
          'x'.repeat(10_000),
        ]) {
          expect(
            await rejectionOf(
              agent.request(methods.agent.session.load, { sessionId, cwd: '/', mcpServers: [] }),
            ),
          ).toMatchObject({ code: -32002, data: { sessionId } });
        }
        expect(
          await rejectionOf(
            agent.request(methods.agent.session.load, {
              sessionId: empty,
              cwd: 'relative',
              mcpServers: [],
            }),
          ),
        ).toMatchObject({ code: -32602 });
      },
    );
  });

  it('answers -32603 naming the file and line for a damaged session', async () => {
    const dir = temporaryStateFolder();
    const testClient = createTestClient();
    const options = {
      model: createScriptedModel({ steps: [{ text: 'One.' }] }),
      sessionStore: openSessionStore({ dir }),
    };
    await withServer(options, testClient, async ({ agent }) => {
      const sessionId = await startSession(agent);
      await prompt(agent, sessionId, 'First.');
      await agent.request(methods.agent.session.close, { sessionId });
      const path = sessionFilePath(dir, sessionId);
      const lines = readFileSync(path, 'utf8').split('\n');
      writeFileSync(path, [lines[0], '{"v":1,"type":"nonsense"}', ...lines.slice(1)].join('\n'));
      const error = await rejectionOf(
        agent.request(methods.agent.session.load, { sessionId, cwd: '/', mcpServers: [] }),
      );
      expect(error).toMatchObject({ code: -32603, data: { code: 'SESSION_INVALID', sessionId } });
      expect((error as Error).message).toContain(`${path} is damaged at line 2`);
    });
  });

  it('refuses to load a session another server holds, naming the process', async () => {
    const dir = temporaryStateFolder();
    const holder = createTestClient();
    await withServer(
      { model: createScriptedModel(DEMO_SCRIPT), sessionStore: openSessionStore({ dir }) },
      holder,
      async ({ agent }) => {
        const sessionId = await startSession(agent);
        const turn = prompt(agent, sessionId, 'Hold it.');
        await holder.forms.next();
        const other = createTestClient();
        await withServer(
          { model: createScriptedModel(DEMO_SCRIPT), sessionStore: openSessionStore({ dir }) },
          other,
          async (second) => {
            await initializeClient(second.agent);
            expect(
              await rejectionOf(
                second.agent.request(methods.agent.session.load, {
                  sessionId,
                  cwd: '/',
                  mcpServers: [],
                }),
              ),
            ).toMatchObject({
              code: -32600,
              message: `Session ${sessionId} is already open in this process.`,
              data: { code: 'SESSION_LOCKED', sessionId },
            });
          },
        );
        await agent.notify(methods.agent.session.cancel, { sessionId });
        expect(await turn).toEqual({ stopReason: 'cancelled' });
      },
    );
  });
});
