// A file read whole as `fstat` saw it, or as it is when it changed since: grown, shrunk, its
// end exactly at the size seen or at the edge of a chunk, with or without a last newline.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readOpenFile } from '../../src/files/read-open-file.js';

const calls = vi.hoisted(() => ({ reads: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const readSync = ((...args: Parameters<typeof actual.readSync>) => {
    calls.reads++;
    return actual.readSync(...args);
  }) as typeof actual.readSync;
  return { ...actual, readSync, default: { ...actual, readSync } };
});

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Bytes `0..255` repeated, the last one a newline or not. */
function bytesOf(length: number, newline: boolean): Buffer {
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index++) bytes[index] = index % 251;
  if (length > 0) bytes[length - 1] = newline ? 0x0a : 0x7d;
  return bytes;
}

/** Reads `bytes` from a file, telling `readOpenFile` that `seen` bytes were there. */
function readAs(bytes: Buffer, seen: number): Buffer {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-read-open-file-'));
  folders.push(folder);
  const path = join(folder, 'file');
  writeFileSync(path, bytes);
  const fd = openSync(path, 'r');
  try {
    calls.reads = 0;
    return readOpenFile(fd, seen);
  } finally {
    closeSync(fd);
  }
}

const SIZES = [1, 2, 65_535, 65_536, 65_537, 131_072, 200_001];

describe('readOpenFile', () => {
  it.each(SIZES)(
    'reads a file of %i bytes found as seen in one call, with or without a last newline',
    (size) => {
      for (const newline of [true, false]) {
        const bytes = bytesOf(size, newline);
        expect(readAs(bytes, size).equals(bytes)).toBe(true);
        expect(calls.reads).toBe(1);
      }
    },
  );

  it.each(SIZES)('reads all of a file of %i bytes that grew since it was seen', (size) => {
    for (const grown of [1, 2, 65_536, 65_537, 300_000]) {
      const bytes = bytesOf(size + grown, false);
      expect(readAs(bytes, size).equals(bytes)).toBe(true);
    }
  });

  it.each(SIZES)('reads what is left of a file seen with %i bytes more than it holds', (extra) => {
    for (const size of [0, 1, 65_536, 70_000]) {
      const bytes = bytesOf(size, true);
      expect(readAs(bytes, size + extra).equals(bytes)).toBe(true);
    }
  });

  it('reads a file seen empty that holds bytes after all', () => {
    const bytes = bytesOf(100_000, true);
    expect(readAs(bytes, 0).equals(bytes)).toBe(true);
  });
});
