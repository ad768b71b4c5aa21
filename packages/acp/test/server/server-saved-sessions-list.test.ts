import { utimesSync } from 'node:fs';
import { methods } from '@agentclientprotocol/sdk';
import { createScriptedModel, openSessionStore } from 'dsh-agent';
import {
  removeTemporaryStateFolders,
  sessionFilePath,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_LIST_PAGE_SIZE } from '../../src/server/session-list-page.js';
import { createTestClient, initializeClient, prompt, withServer } from '../../src/testing.js';
import { rejectionOf } from '../support/rejection-of.js';

afterEach(removeTemporaryStateFolders);

describe('saved sessions', () => {
  it('lists the sessions of a cwd newest first, a page at a time, with a cursor that must be its own', async () => {
    const testClient = createTestClient();
    const sessionStore = openSessionStore({ dir: temporaryStateFolder() });
    const model = createScriptedModel({ steps: [{ text: 'Ok.' }] });
    await withServer({ model, sessionStore }, testClient, async ({ agent }) => {
      await initializeClient(agent);
      const count = 2 * SESSION_LIST_PAGE_SIZE + 7;
      const ids = new Set<string>();
      for (let index = 0; index < count; index++) {
        const { sessionId } = await agent.request(methods.agent.session.new, {
          cwd: index % 2 === 0 ? '/a' : '/b',
          mcpServers: [],
        });
        await prompt(agent, sessionId, `Session ${index}`);
        if (index % 2 === 0) ids.add(sessionId);
      }
      // Half of them last active at the same moment: ties must neither repeat nor drop a session.
      const moment = new Date(Date.now() - 60_000);
      for (const sessionId of [...ids].slice(0, Math.floor(ids.size / 2))) {
        utimesSync(sessionFilePath(sessionStore.dir, sessionId), moment, moment);
      }
      const first = await agent.request(methods.agent.session.list, { cwd: '/a' });
      expect(ids.size).toBeGreaterThan(SESSION_LIST_PAGE_SIZE);
      expect(first.sessions).toHaveLength(SESSION_LIST_PAGE_SIZE);
      const all = [...first.sessions];
      let cursor = first.nextCursor;
      let pages = 1;
      while (cursor != null) {
        pages++;
        const page = await agent.request(methods.agent.session.list, { cwd: '/a', cursor });
        all.push(...page.sessions);
        cursor = page.nextCursor;
      }
      expect(pages).toBe(2);
      expect(new Set(all.map((info) => info.sessionId))).toEqual(ids);
      expect(all).toHaveLength(ids.size);
      const times = all.map((info) => Date.parse(info.updatedAt ?? ''));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect((await agent.request(methods.agent.session.list, {})).sessions).toHaveLength(
        SESSION_LIST_PAGE_SIZE,
      );

      for (const params of [{ cursor: 'not-ours' }, { cwd: 'relative/path' }]) {
        expect(await rejectionOf(agent.request(methods.agent.session.list, params))).toMatchObject({
          code: -32602,
        });
      }
    });
  });
});
