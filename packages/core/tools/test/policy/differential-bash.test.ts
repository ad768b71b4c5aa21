import { describe, expect, it } from 'vitest';
import { differentialRun } from '../support/bash-differential.js';
import { canTrace, runTraced } from '../support/traced-bash.js';

describe('the command policy against bash itself', () => {
  it('has a tracer that sees a hidden command run (strace is installed by scripts/setup.sh)', () => {
    expect(canTrace(), 'strace must be installed: run `sh scripts/setup.sh`').toBe(true);
    const run = runTraced('echo hi; touch pwned');
    expect(run.ran).toContainEqual(['echo', 'hi']);
    expect(run.ran).toContainEqual(['touch', 'pwned']);
    expect(run.files).toEqual(['pwned']);
  });

  it('lets bash run, of a command a rule allows, only the commands the policy saw (fixed seed)', async () => {
    const { allowed, disagreements } = await differentialRun(20261207, 700);
    expect(disagreements).toEqual([]);
    // The generator makes enough plain commands for the check to mean something.
    expect(allowed).toBeGreaterThan(150);
  }, 120_000);
});
