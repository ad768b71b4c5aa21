// A new session's lock and file are prepared off the main thread as soon as it is made, so
// that its first prompt has nothing to create and its first answer no folder to wait for.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSessionError } from '../../src/session/session-error.js';
import { openSessionStore } from '../../src/session/session-store.js';
import { lockFiles, sessionLines, sessionPath, stateFolder } from '../support/session-files.js';

/** Lets the preparation begin (it starts once the current tick's work is done), then end. */
async function prepared(flush: () => Promise<void>): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await flush();
}

describe('a new session prepared ahead of its first prompt', () => {
  it('has its lock and an empty file before anything is said, then writes each entry as it comes', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/work/app' });
    await prepared(() => session.recorder.flush());
    const path = sessionPath(dir, session.id);
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(lockFiles(dir)).toEqual([`${session.id}.1.lock`]);
    // Neither listed nor found while nothing is said in it.
    expect(await store.list()).toEqual([]);
    const other = openSessionStore({ dir });
    await expect(other.open(session.id)).rejects.toSatisfy((error) =>
      isSessionError(error, 'SESSION_NOT_FOUND'),
    );

    session.recorder.add({ type: 'prompt', text: 'Hello there' });
    // On disk at once, with no flush: nothing had to be created.
    expect(sessionLines(dir, session.id).map((line) => line.type)).toEqual(['session', 'prompt']);
    session.recorder.add({ type: 'assistant', text: 'Hi.' });
    session.recorder.add({ type: 'turn-end', reason: 'finished' });
    await session.recorder.flush();
    await session.close();
    expect(sessionLines(dir, session.id)).toEqual([
      expect.objectContaining({ type: 'session', id: session.id, title: 'Hello there' }),
      { v: 1, type: 'prompt', text: 'Hello there' },
      { v: 1, type: 'assistant', text: 'Hi.' },
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
    expect(lockFiles(dir)).toEqual([]);
    const [listed] = await store.list();
    expect(listed).toMatchObject({ id: session.id, title: 'Hello there' });
  });

  it('writes the lines added while it is under way as soon as it ends, in order, before a flush resolves', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    await new Promise((resolve) => setImmediate(resolve));
    // The preparation has begun and not ended (it takes the system's worker threads).
    session.recorder.add({ type: 'prompt', text: 'First' });
    session.recorder.add({ type: 'assistant', text: 'Second' });
    await session.recorder.flush();
    expect(sessionLines(dir, session.id).map((line) => line.type)).toEqual([
      'session',
      'prompt',
      'assistant',
    ]);
    session.recorder.add({ type: 'turn-end', reason: 'finished' });
    await session.close();
    expect(sessionLines(dir, session.id).map((line) => line.type)).toEqual([
      'session',
      'prompt',
      'assistant',
      'turn-end',
    ]);
  });

  it('leaves nothing behind when it closes with nothing said, prepared or not', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const early = store.create({ cwd: '/' });
    await early.close();
    const late = store.create({ cwd: '/' });
    await prepared(() => late.recorder.flush());
    expect(existsSync(sessionPath(dir, late.id))).toBe(true);
    await late.close();
    expect(existsSync(sessionPath(dir, early.id))).toBe(false);
    expect(existsSync(sessionPath(dir, late.id))).toBe(false);
    expect(lockFiles(dir)).toEqual([]);
  });
});
