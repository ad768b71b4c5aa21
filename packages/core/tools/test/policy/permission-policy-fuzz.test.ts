import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { policySetUp, commandCheck as run } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const setUp = policySetUp(testFileFolder('dsh-policy-'));

describe('the permission policy', () => {
  it('never allows a command built to look allowed unless every part is (fuzz)', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:npm test', 'run_command:git status'],
    });
    const pieces = fc.constantFrom(
      'npm test',
      'git status',
      'rm -rf x',
      '$(rm x)',
      '`rm x`',
      'env rm x',
      'bash -c "rm x"',
      '\\rm x',
      '/bin/rm x',
    );
    const separators = fc.constantFrom(' && ', ' || ', '; ', ' | ', ' & ', '\n');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(pieces, separators), { minLength: 1, maxLength: 6 }),
        async (list) => {
          const command = list
            .map(([piece, separator]) => piece + separator)
            .join('')
            .trimEnd();
          const verdict = await policy.decide(run(workspace, command));
          const onlyAllowed = list.every(
            ([piece]) => piece === 'npm test' || piece === 'git status',
          );
          if (verdict.decision === 'allow') expect(onlyAllowed, command).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (command) => {
        await policy.decide(run(workspace, command));
      }),
      { numRuns: 200 },
    );
  });
});
