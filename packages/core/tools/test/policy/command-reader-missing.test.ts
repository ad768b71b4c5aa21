// The command reader loads with the first command to decide (see `lazy-analyse-command.ts`): if
// it cannot be loaded, no command is allowed, by a rule or otherwise. The policy rejects, and the
// agent denies a call whose policy rejects (`approveCall` in dsh-agent).
import { describe, expect, it, vi } from 'vitest';
import { fileCheck as file, policySetUp, commandCheck as run } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

vi.mock('../../src/policy/command/analyse-command.js', () => {
  throw new Error('Cannot find module analyse-command.js');
});

const setUp = policySetUp(testFileFolder('dsh-reader-missing-'));

describe('the permission policy without its command reader', () => {
  it('allows no command, even one a rule allows, and still decides files', async () => {
    const { workspace, policy } = await setUp({ allow: ['run_command:ls', 'read_file'] });
    await expect(policy.decide(run(workspace, 'ls'))).rejects.toThrow();
    await expect(policy.decide(run(workspace, 'rm -rf /'))).rejects.toThrow();
    // Rules and file decisions never needed the reader: they load and decide without it.
    expect(policy.rules().map((rule) => rule.rule)).toEqual(['run_command:ls', 'read_file']);
    expect(await policy.decide(file(workspace, 'read_file', 'src/a.ts', 'read'))).toMatchObject({
      decision: 'allow',
    });
  });
});
