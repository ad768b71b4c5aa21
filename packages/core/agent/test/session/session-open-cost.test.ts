// What opening a saved session costs as sessions accumulate: the sessions folder is read once
// (the check that follows taking the lock), however many sessions it holds; the file is read
// in one call and cut only where a torn line was skipped.
import { appendFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { openSessionStore } from '../../src/session/session-store.js';
import { sessionPath, stateFolder } from '../support/session-files.js';

const calls = vi.hoisted(() => ({
  folders: 0,
  reads: 0,
  cuts: 0,
  drafts: 0,
  /** Run as the lock's generation is linked (the last moment another holder could write). */
  onLink: undefined as (() => void) | undefined,
}));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const counted = <F extends (...args: never[]) => unknown>(fn: F, count: () => void): F =>
    ((...args: Parameters<F>) => {
      count();
      return fn(...args);
    }) as F;
  const overrides = {
    readdirSync: counted(actual.readdirSync, () => calls.folders++),
    readSync: counted(actual.readSync, () => calls.reads++),
    ftruncateSync: counted(actual.ftruncateSync, () => calls.cuts++),
    writeFileSync: counted(actual.writeFileSync, () => calls.drafts++),
    linkSync: counted(actual.linkSync, () => {
      const onLink = calls.onLink;
      calls.onLink = undefined;
      onLink?.();
    }),
  };
  return { ...actual, ...overrides, default: { ...actual, ...overrides } };
});

function resetCalls(): void {
  Object.assign(calls, { folders: 0, reads: 0, cuts: 0, drafts: 0 });
}

async function savedSessions(dir: string, count: number): Promise<string[]> {
  const store = openSessionStore({ dir });
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const session = store.create({ cwd: '/' });
    session.recorder.add({ type: 'prompt', text: `Message ${index}` });
    session.recorder.add({ type: 'assistant', text: 'Noted.' });
    session.recorder.add({ type: 'turn-end', reason: 'finished' });
    await session.close();
    ids.push(session.id);
  }
  return ids;
}

describe('opening a saved session', () => {
  it('reads the sessions folder once', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    for (const id of await savedSessions(dir, 20)) {
      resetCalls();
      const session = await store.open(id);
      expect(calls.folders).toBe(1);
      await session.close();
    }
  });

  it('reads its file in one call and cuts nothing when every line is whole', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const [id] = (await savedSessions(dir, 1)) as [string];
    resetCalls();
    const session = await store.open(id);
    expect(session.entries).toHaveLength(3);
    expect({ reads: calls.reads, cuts: calls.cuts }).toEqual({ reads: 1, cuts: 0 });
    await session.close();
    // A torn last line is cut off, and the file read on to a read of nothing.
    appendFileSync(sessionPath(dir, id), '{"v":1,"type":"prompt","te');
    resetCalls();
    const repaired = await store.open(id);
    expect(repaired.warnings).toHaveLength(1);
    expect(calls.cuts).toBe(1);
    await repaired.close();
  });

  it('reads what was written after the file was opened, before the lock was taken', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const [id] = (await savedSessions(dir, 1)) as [string];
    const path = sessionPath(dir, id);
    // The last line of a holder that gives the lock back as this process takes it.
    calls.onLink = () => appendFileSync(path, '{"v":1,"type":"prompt","text":"Late"}\n');
    const session = await store.open(id);
    expect(session.entries[3]).toEqual({ type: 'prompt', text: 'Late' });
    await session.close();
    const again = await store.open(id);
    expect(again.entries[3]).toEqual({ type: 'prompt', text: 'Late' });
    await again.close();
  });

  it('makes no draft of its lock while this process holds another session there', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const [id] = (await savedSessions(dir, 1)) as [string];
    const open = store.create({ cwd: '/' });
    open.recorder.add({ type: 'prompt', text: 'Still open' });
    await open.recorder.flush();
    resetCalls();
    const session = await store.open(id);
    expect(calls.drafts).toBe(0);
    await session.close();
    await open.close();
  });
});
