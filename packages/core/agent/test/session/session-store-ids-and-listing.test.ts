import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSessionError } from '../../src/session/session-error.js';
import { openSessionStore } from '../../src/session/session-store.js';
import { collect, endOf } from '../support/harness.js';
import { agentOn, rejection } from '../support/session-agents.js';
import { stateFolder } from '../support/session-files.js';

describe('the session store', () => {
  it('checks ids before they reach a path: anything but a lowercase UUID is not found', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    for (const id of [
      '../../etc/passwd',
      '..',
      '',
      'CON',
      'a/b',
      'A0B5F8A6-3C1D-4E2F-9A7B-6C5D4E3F2A1B',
      `${'0'.repeat(8)}-0000-0000-0000-000000000000/..`,
    ]) {
      const error = await rejection(store.open(id));
      expect(isSessionError(error, 'SESSION_NOT_FOUND'), `${id}: ${error}`).toBe(true);
    }
    const error = await rejection(store.open('0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b'));
    expect((error as Error).message).toBe(
      'There is no saved session 0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b.',
    );
    // Nothing was created looking for them.
    expect(() => statSync(join(dir, 'sessions'))).toThrow();
  });

  it('lists the sessions of a folder, newest first, titled by their first message', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const ids: string[] = [];
    for (const [cwd, prompt] of [
      ['/a', '  \n\tPlan the   release\nwith details'],
      ['/b', 'Elsewhere'],
      ['/a', `${'long '.repeat(40)}end`],
    ] as const) {
      const session = store.create({ cwd });
      endOf(await collect(agentOn(session, { steps: [{ text: 'Ok.' }] }).run(prompt)));
      await session.close();
      ids.push(session.id);
    }
    store.create({ cwd: '/a' });
    writeFileSync(join(dir, 'sessions', 'notes.txt'), 'not a session');
    const listed = await store.list({ cwd: '/a' });
    expect(listed.map((info) => info.id).sort()).toEqual([ids[0], ids[2]].sort());
    expect(listed[0]?.updatedAt.getTime()).toBeGreaterThanOrEqual(
      listed[1]?.updatedAt.getTime() ?? 0,
    );
    const titles = new Map(listed.map((info) => [info.id, info.title]));
    expect(titles.get(ids[0] ?? '')).toBe('Plan the release');
    expect(titles.get(ids[2] ?? '')).toBe(`${'long '.repeat(15)}long…`);
    expect(Array.from(titles.get(ids[2] ?? '') ?? '')).toHaveLength(80);
    expect(await store.list()).toHaveLength(3);
  });
});
