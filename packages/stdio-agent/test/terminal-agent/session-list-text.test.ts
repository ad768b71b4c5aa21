import type { SessionInfo } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { sessionListText } from '../../src/terminal-agent/session-list-text.js';

/** A listed session, started and last active at local times (so any time zone reads the same). */
function info(id: string, title: string, started: Date, updated = started): SessionInfo {
  return { id, cwd: '/work', title, createdAt: started, updatedAt: updated };
}

describe('sessionListText', () => {
  it('says when each conversation started where titles are the same, and only there', () => {
    const text = sessionListText(
      [
        info('id-3', 'hello', new Date(2026, 6, 30, 14, 2, 41)),
        info('id-2', 'hello', new Date(2026, 6, 30, 14, 2, 5)),
        info('id-1', 'fix the build', new Date(2026, 6, 29, 9, 15, 0)),
        // Titles that show alike once made inert are the same title.
        info('id-0', 'hello\u0007', new Date(2026, 6, 28, 8, 0, 9)),
        info('id-a', 'hello^G', new Date(2026, 6, 28, 8, 1, 0)),
      ],
      '/work',
    );
    expect(text).toBe(
      [
        'id-3  2026-07-30 14:02  hello (started 2026-07-30 14:02:41)',
        'id-2  2026-07-30 14:02  hello (started 2026-07-30 14:02:05)',
        'id-1  2026-07-29 09:15  fix the build',
        'id-0  2026-07-28 08:00  hello^G (started 2026-07-28 08:00:09)',
        'id-a  2026-07-28 08:01  hello^G (started 2026-07-28 08:01:00)',
        '',
        'Resume one with --resume ID, or the newest with --continue.',
        '',
      ].join('\n'),
    );
  });

  it('gives untitled conversations their start too, and leaves a start it cannot read out', () => {
    const text = sessionListText(
      [
        info('id-2', '', new Date(2026, 0, 2, 3, 4, 5)),
        info('id-1', '', new Date(Number.NaN), new Date(2026, 0, 1, 0, 0, 0)),
      ],
      '/work',
    );
    expect(text.split('\n').slice(0, 2)).toEqual([
      'id-2  2026-01-02 03:04  (started 2026-01-02 03:04:05)',
      'id-1  2026-01-01 00:00  ',
    ]);
  });
});
