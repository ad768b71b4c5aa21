import { describe, expect, it } from 'vitest';
import { parseAgentCommandLine, parseDuration } from '../../src/command-line/agent-command-line.js';
import { usageError } from '../support/usage-errors.js';

describe('parseDuration', () => {
  it.each([
    ['90000', 90_000],
    ['250ms', 250],
    ['90s', 90_000],
    ['1.5m', 90_000],
    ['2h', 7_200_000],
    [' 30s ', 30_000],
    ['1ms', 1],
    ['1000', 1_000],
  ])('%j is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['90', '1', '999', '0.5'])(
    'a bare %j is refused: seconds were probably meant',
    (text) => {
      expect(usageError(() => parseDuration(text)).message).toBe(
        `--timeout ${text} would be ${text} milliseconds: write ${text}s for seconds, or ${text}ms if you mean it`,
      );
    },
  );

  it.each(['', 'soon', '5 s', '5d', '1e3', '25d', '--5s'])('%j is refused', (text) => {
    expect(usageError(() => parseDuration(text)).message).toMatch(/^--timeout takes a duration/);
  });

  it.each([
    ['0', '--timeout 0 is zero: a duration must be above zero, such as 90s or 5m'],
    ['0s', '--timeout 0s is zero: a duration must be above zero, such as 90s or 5m'],
    ['0.0m', '--timeout 0.0m is zero: a duration must be above zero, such as 90s or 5m'],
    ['-5s', '--timeout -5s is negative: a duration must be above zero, such as 90s or 5m'],
    ['-1', '--timeout -1 is negative: a duration must be above zero, such as 90s or 5m'],
    ['0.0001s', '--timeout 0.0001s is under a millisecond: the shortest duration is 1ms'],
    ['600h', '--timeout 600h is longer than 24 days, the longest a timer can wait'],
  ])('%j says what is wrong with it', (text, message) => {
    expect(usageError(() => parseDuration(text)).message).toBe(message);
  });

  it.each([
    [
      ['--timeout', '-1s'],
      '--timeout -1s is negative: a duration must be above zero, such as 90s or 5m',
    ],
    [
      ['--timeout=-1s'],
      '--timeout -1s is negative: a duration must be above zero, such as 90s or 5m',
    ],
    [['--timeout', '0'], '--timeout 0 is zero: a duration must be above zero, such as 90s or 5m'],
    [['--timeout'], '--timeout needs a value'],
  ])('the command line %j says what is wrong with the duration', (args, message) => {
    expect(usageError(() => parseAgentCommandLine(args)).message).toBe(message);
  });
});
