import { expect } from 'vitest';
import { UsageError } from '../../src/command-line/agent-command-line.js';

// The error a command line is refused with (agent-command-line-*.test.ts).

/** The `UsageError` that `run` throws; fails the test when it throws none or another. */
export function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}
