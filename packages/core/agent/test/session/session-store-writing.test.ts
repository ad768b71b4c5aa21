import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/session/session-store.js';
import { collect, endOf } from '../support/harness.js';
import { agentOn, TWO_QUESTIONS } from '../support/session-agents.js';
import { lockFiles, sessionLines, sessionPath, stateFolder } from '../support/session-files.js';

describe('the session store', () => {
  it('writes nothing for a session until its first prompt, then one line per event', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/work/app' });
    expect(await store.list()).toEqual([]);

    const agent = agentOn(session, TWO_QUESTIONS, [{ custom: 'Ann' }, { label: 'Blue' }]);
    endOf(await collect(agent.run('Greet me\nplease')));
    await session.close();

    const lines = sessionLines(dir, session.id);
    expect(lines.map((line) => [line.v, line.type])).toEqual([
      [1, 'session'],
      [1, 'prompt'],
      [1, 'assistant'],
      [1, 'posed'],
      [1, 'tool-result'],
      [1, 'posed'],
      [1, 'tool-result'],
      [1, 'assistant'],
      [1, 'turn-end'],
    ]);
    expect(lines[0]).toEqual({
      v: 1,
      type: 'session',
      id: session.id,
      cwd: '/work/app',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      title: 'Greet me',
    });
    expect(lines[5]).toEqual({ v: 1, type: 'posed', toolCallId: 'color', kind: 'question' });
    expect(lines[6]).toMatchObject({
      toolCallId: 'color',
      result: { ok: true, output: 'Blue', answer: { answer: 'Blue', option: { label: 'Blue' } } },
    });
    expect(lines[8]).toEqual({ v: 1, type: 'turn-end', reason: 'finished' });
    // The lock went with the close.
    expect(lockFiles(dir)).toEqual([]);
  });

  it('makes the file at the first entry, and writes each entry as it comes', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    session.recorder.add({ type: 'prompt', text: 'First line\nsecond' });
    // On disk before any flush: the header and the prompt.
    expect(sessionLines(dir, session.id).map((line) => line.type)).toEqual(['session', 'prompt']);
    session.recorder.add({ type: 'assistant', text: 'Hi.' });
    await session.recorder.flush();
    session.recorder.add({ type: 'turn-end', reason: 'finished' });
    await session.close();
    expect(sessionLines(dir, session.id)).toEqual([
      expect.objectContaining({ type: 'session', title: 'First line' }),
      { v: 1, type: 'prompt', text: 'First line\nsecond' },
      { v: 1, type: 'assistant', text: 'Hi.' },
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
  });

  it.runIf(existsSync('/proc/self/fd'))(
    'leaves no file open and no lock behind after many sessions',
    async () => {
      const dir = stateFolder();
      const store = openSessionStore({ dir });
      const openFiles = () => readdirSync('/proc/self/fd').length;
      const warm = store.create({ cwd: '/' });
      endOf(await collect(agentOn(warm, { steps: [{ text: 'Hi.' }] }).run('warm up')));
      await warm.close();
      const before = openFiles();
      for (let round = 0; round < 40; round++) {
        const session = store.create({ cwd: '/' });
        endOf(await collect(agentOn(session, { steps: [{ text: 'Hi.' }] }).run(`round ${round}`)));
        await session.close();
        const again = await store.open(session.id);
        await again.close();
      }
      expect(openFiles()).toBe(before);
      expect(lockFiles(dir)).toEqual([]);
      expect(await store.list()).toHaveLength(41);
    },
  );

  it.each([0o022, 0o000, 0o277])(
    'makes its folders 0700 and its files 0600 under umask %o',
    async (umask) => {
      const dir = join(stateFolder(), 'state');
      const previous = process.umask(umask);
      try {
        const session = openSessionStore({ dir }).create({ cwd: '/' });
        endOf(await collect(agentOn(session, { steps: [{ text: 'Hi.' }] }).run('hello')));
        await session.close();
      } finally {
        process.umask(previous);
      }
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'sessions')).mode & 0o777).toBe(0o700);
      const [info] = await openSessionStore({ dir }).list();
      expect(statSync(sessionPath(dir, info?.id ?? '')).mode & 0o777).toBe(0o600);
    },
  );
});
