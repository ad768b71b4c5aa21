import type { SessionInfo } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { sessionListPage } from '../../src/server/session-list-page.js';

/** `count` sessions in list order (newest first), a minute apart. */
function sessionInfos(count: number): SessionInfo[] {
  const now = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, index) => ({
    id: `session-${String(index).padStart(3, '0')}`,
    cwd: '/a',
    title: `Session ${index}`,
    createdAt: new Date(now - index * 60_000),
    updatedAt: new Date(now - index * 60_000),
  }));
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

describe('sessionListPage cursors', () => {
  const infos = sessionInfos(7);

  it('pages on with the cursors it gave', () => {
    const first = sessionListPage(infos, undefined, 3);
    const second = sessionListPage(infos, first.nextCursor, 3);
    const third = sessionListPage(infos, second.nextCursor, 3);
    expect(
      [...first.sessions, ...second.sessions, ...third.sessions].map((s) => s.sessionId),
    ).toEqual(infos.map((info) => info.id));
    expect(third.nextCursor).toBeUndefined();
  });

  it('refuses a cursor it did not give with -32602, however well formed', () => {
    const { nextCursor } = sessionListPage(infos, undefined, 3);
    expect(typeof nextCursor).toBe('string');
    const genuine = Buffer.from(nextCursor as string, 'base64url');
    const flipped = Buffer.from(genuine);
    flipped[flipped.length - 2] = (flipped[flipped.length - 2] as number) ^ 1;
    const forged = [
      // The position alone, as cursors were before they were signed: it used to return a page.
      base64url(JSON.stringify({ t: 0, c: 0, id: '' })),
      base64url(JSON.stringify({ t: Date.now(), c: Date.now(), id: 'session-001' })),
      // Another position under a genuine cursor's MAC.
      Buffer.concat([genuine.subarray(0, 32), Buffer.from('{"t":0,"c":0,"id":""}')]).toString(
        'base64url',
      ),
      flipped.toString('base64url'),
      genuine.subarray(0, 32).toString('base64url'),
      `${nextCursor as string}!`,
      '',
      'not-ours',
    ];
    for (const cursor of forged) {
      expect(
        thrown(() => sessionListPage(infos, cursor, 3)),
        cursor,
      ).toMatchObject({
        code: -32602,
      });
    }
  });
});
