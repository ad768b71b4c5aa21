import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/text/format-duration.js';

// One rule for every message and UI: the agent's errors, the terminal's retry line and question
// time limit, and the editor's retry notice all said 1,500 ms in their own way ("1.5 s", "2 s").
describe('formatDuration', () => {
  it.each([
    [50, '50 ms'],
    [249.6, '250 ms'],
    [999, '999 ms'],
    [1_000, '1 s'],
    [1_500, '1.5 s'],
    [2_000, '2 s'],
    [9_940, '9.9 s'],
    [9_960, '10 s'],
    [20_400, '20 s'],
    [90_000, '90 s'],
    [120_000, '2 min'],
    [300_000, '5 min'],
    [330_000, '330 s'],
  ])('shows %d ms as %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
