import type { RetryEvent } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { retryNote } from '../../src/terminal-agent/retry-note.js';
import { terminalStyle } from '../../src/text/terminal-style.js';

const style = terminalStyle({ env: { NO_COLOR: '1' }, interactive: false, platform: 'linux' });

function retry(delayMs: number): RetryEvent {
  return {
    type: 'retry',
    attempt: 2,
    attempts: 3,
    delayMs,
    error: { name: 'ModelError', code: 'MODEL_UNAVAILABLE', message: 'The server is busy.' },
  };
}

describe('the retry line', () => {
  it('says when with the one duration rule of every UI (1,500 ms is 1.5 s, as the editor says)', () => {
    expect(retryNote(retry(1_500), style, undefined)).toEqual([
      '↻ The server is busy. Retrying in 1.5 s, attempt 2 of 3.',
    ]);
    expect(retryNote(retry(0), style, undefined)).toEqual([
      '↻ The server is busy. Retrying now, attempt 2 of 3.',
    ]);
  });
});
