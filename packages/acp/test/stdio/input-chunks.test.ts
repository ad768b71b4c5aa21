import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inputChunks } from '../../src/stdio/input-chunks.js';

const text = (chunk: Uint8Array | undefined) =>
  chunk === undefined ? undefined : Buffer.from(chunk).toString();

describe('inputChunks', () => {
  it('reads the chunks in order, those that came before a read and after, then the end', async () => {
    const input = new PassThrough();
    const chunks = inputChunks(input);
    input.write('one');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(text(await chunks.next())).toBe('one');
    const waiting = chunks.next();
    input.write('two');
    expect(text(await waiting)).toBe('two');
    input.end('three');
    expect(text(await chunks.next())).toBe('three');
    expect(await chunks.next()).toBeUndefined();
    // Read again after the end: still the end.
    expect(await chunks.next()).toBeUndefined();
  });

  it('pauses the input while many chunks wait, and takes it up again once they are read', async () => {
    const input = new PassThrough();
    const chunks = inputChunks(input);
    for (let index = 0; index < 20; index++) input.write(`chunk ${index}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(true);
    const seen: string[] = [];
    for (let index = 0; index < 20; index++) seen.push(text(await chunks.next()) ?? '');
    expect(seen).toEqual(Array.from({ length: 20 }, (_, index) => `chunk ${index}`));
    expect(input.isPaused()).toBe(false);
  });

  it('fails when the input closes before its end, as the web adapter does', async () => {
    const input = new PassThrough();
    const chunks = inputChunks(input);
    const next = chunks.next();
    input.destroy();
    await expect(next).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('fails with the input’s error', async () => {
    const input = new PassThrough();
    const chunks = inputChunks(input);
    const error = new Error('read EIO');
    input.destroy(error);
    await expect(chunks.next()).rejects.toBe(error);
  });

  it('cancel settles a waiting read with its reason and destroys the input', async () => {
    const input = new PassThrough();
    const chunks = inputChunks(input);
    const next = chunks.next();
    const reason = new Error('the connection closed');
    chunks.cancel(reason);
    await expect(next).rejects.toBe(reason);
    await expect(chunks.next()).rejects.toBe(reason);
    expect(input.destroyed).toBe(true);
    expect(input.listenerCount('data')).toBe(0);
  });
});
