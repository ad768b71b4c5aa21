// What reading sessions costs. Listing: every byte it reads is counted, so a session of 200 MB
// is seen to cost the list no more than a small one (its header is all the list shows).
// Loading: every line is parsed once.
import { appendFileSync, truncateSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { openSessionStore } from '../../src/session/session-store.js';
import { sessionPath, stateFolder } from '../support/session-files.js';

const reads = vi.hoisted(() => ({ bytes: 0 }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  // Every handle the store opens counts what it reads.
  const open: typeof actual.open = async (...args) => {
    const handle = await actual.open(...args);
    const read = handle.read.bind(handle) as (...readArgs: unknown[]) => Promise<{
      bytesRead: number;
    }>;
    Object.defineProperty(handle, 'read', {
      value: async (...readArgs: unknown[]) => {
        const result = await read(...readArgs);
        reads.bytes += result.bytesRead;
        return result;
      },
    });
    return handle;
  };
  return { ...actual, open, default: { ...actual, open } };
});

const MB = 1024 * 1024;

describe('loading a session', () => {
  it('parses each line once', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    for (let turn = 0; turn < 50; turn++) {
      session.recorder.add({ type: 'prompt', text: `Message ${turn}` });
      session.recorder.add({ type: 'assistant', text: 'Noted.' });
      session.recorder.add({ type: 'turn-end', reason: 'finished' });
    }
    await session.close();
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const loaded = await store.open(session.id);
      expect(loaded.entries).toHaveLength(150);
      // The header and 150 entries.
      expect(parse).toHaveBeenCalledTimes(151);
      await loaded.close();
    } finally {
      parse.mockRestore();
    }
  });
});

describe('listing sessions', () => {
  it('reads as much of a 200 MB session as of a small one: its header', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const small = store.create({ cwd: '/work/small' });
    small.recorder.add({ type: 'prompt', text: 'A small session' });
    await small.close();
    const big = store.create({ cwd: '/work/big' });
    big.recorder.add({ type: 'prompt', text: 'A big session' });
    await big.close();
    // 200 MB of conversation after its first lines (a sparse file: nothing is written).
    const path = sessionPath(dir, big.id);
    truncateSync(path, 200 * MB);
    appendFileSync(path, `${JSON.stringify({ v: 1, type: 'turn-end', reason: 'finished' })}\n`);

    reads.bytes = 0;
    const [onlySmall] = await store.list({ cwd: '/work/small' });
    const smallCost = reads.bytes;
    reads.bytes = 0;
    const [onlyBig] = await store.list({ cwd: '/work/big' });
    const bigCost = reads.bytes;

    expect(onlySmall).toMatchObject({ id: small.id, title: 'A small session' });
    expect(onlyBig).toMatchObject({ id: big.id, title: 'A big session' });
    // Both lists read both files' heads, and nothing more.
    expect(bigCost).toBe(smallCost);
    expect(bigCost).toBeGreaterThan(0);
    expect(bigCost).toBeLessThan(64 * 1024);
  });
});
