import { readFileSync } from 'node:fs';
import { temporaryFolder } from 'dsh-agent/testing';
import { afterAll, expect, vi } from 'vitest';

/** A folder for this test file's workspaces (in `parent`, by default the system's), removed after its tests. */
export function testFileFolder(prefix: string, parent?: string): string {
  const folder = temporaryFolder(prefix, parent);
  afterAll(folder.remove);
  return folder.path;
}

/** Whether a process still runs (a zombie nobody reaped yet counts as gone: it was killed). */
export function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits until the process `pid` is gone. */
export async function expectGone(pid: number, { timeout }: { timeout?: number } = {}) {
  expect(pid).toBeGreaterThan(0);
  await vi.waitFor(
    () => expect(running(pid)).toBe(false),
    timeout === undefined ? {} : { timeout },
  );
}
