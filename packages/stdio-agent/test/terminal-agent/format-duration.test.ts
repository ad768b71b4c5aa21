import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/terminal-agent/format-duration.js';

describe('formatDuration', () => {
  it.each([
    [50, '50 ms'],
    [1_500, '2 s'],
    [90_000, '90 s'],
    [300_000, '5 min'],
    [330_000, '330 s'],
  ])('shows %d ms as %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
