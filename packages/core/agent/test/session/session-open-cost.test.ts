// What opening a saved session costs as sessions accumulate: the sessions folder is read once
// (the check that follows taking the lock), however many sessions it holds.
import { describe, expect, it, vi } from 'vitest';
import { openSessionStore } from '../../src/session/session-store.js';
import { stateFolder } from '../support/session-files.js';

const reads = vi.hoisted(() => ({ folders: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((...args: Parameters<typeof actual.readdirSync>) => {
    reads.folders++;
    return actual.readdirSync(...args);
  }) as typeof actual.readdirSync;
  return { ...actual, readdirSync, default: { ...actual, readdirSync } };
});

describe('opening a saved session', () => {
  it('reads the sessions folder once', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const ids: string[] = [];
    for (let index = 0; index < 20; index++) {
      const session = store.create({ cwd: '/' });
      session.recorder.add({ type: 'prompt', text: `Message ${index}` });
      await session.close();
      ids.push(session.id);
    }
    for (const id of ids) {
      reads.folders = 0;
      const session = await store.open(id);
      expect(reads.folders).toBe(1);
      await session.close();
    }
  });
});
