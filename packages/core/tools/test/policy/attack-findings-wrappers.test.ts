import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseCommand } from '../../src/policy/command/analyse-command.js';
import {
  commandCheck,
  commandPolicy,
  FINDINGS_DENY as DENY,
  findingsSetUp,
} from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';
import { runTraced } from '../support/traced-bash.js';

// Findings of the attack on the fail-closed policy, under the rules of FINDINGS_ALLOW.
const base = testFileFolder('dsh-attack-findings-');
const setUp = findingsSetUp(base);

describe('wrappers read otherwise than the program reads its options', () => {
  it('asks for `env` with `-u` in a cluster, or an abbreviated --unset/--split-string/--chdir', async () => {
    const decide = await setUp();
    // `env -iu echo touch pwned` unsets the variable `echo` and runs `touch pwned`; the policy
    // saw `echo touch pwned` (and the deny rule for `touch` never met it).
    for (const command of [
      'env -iu echo touch pwned',
      'env -vu echo touch pwned',
      'env --u echo touch pwned',
      'env --uns echo touch pwned',
      'env --s=touch\\ pwned echo hi',
    ]) {
      expect(runTraced(command).files, command).toContain('pwned');
      expect((await decide(command)).decision, command).not.toBe('allow');
    }
    // `env --ch=..` runs the command in another folder, as `env -C ..` does (which asks).
    for (const command of ['env --ch=.. npm test', 'env --ch=/ ls'])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('asks for `time` with `-f` in a cluster, or an abbreviated --format/--output', async () => {
    const decide = await setUp();
    for (const command of [
      '\\time -vf echo touch pwned',
      '\\time --f echo touch pwned',
      // `--format` in full too: only `-f` and `-o` are read as taking a value.
      '/usr/bin/time --format echo touch pwned',
      '\\time -pf echo touch pwned',
      '\\time --out=pwned echo hi',
      '/usr/bin/time --ou=pwned echo hi',
    ]) {
      expect(runTraced(command).files, command).toContain('pwned');
      expect((await decide(command)).decision, command).not.toBe('allow');
    }
  });

  it('reads `jobs -x` as the wrapper it is (it runs the command after it)', async () => {
    const { workspace, policy } = await commandPolicy(base, {
      allow: ['run_command:jobs'],
      deny: DENY,
    });
    const command = 'jobs -x touch pwned';
    expect(runTraced(command).files).toContain('pwned');
    expect((await policy.decide(commandCheck(workspace, command))).decision).not.toBe('allow');
  });
});

describe('package manager options that take a value', () => {
  it('asks where npm reads the word after `--filter`/`-F` as an option of its own', async () => {
    const decide = await setUp();
    // `--filter` is pnpm's; npm reads it as a flag of no value, so the next word is npm's option:
    // `--node-options=--require=./x.js` runs x.js (seen: it wrote `pwned`), under `npm test`.
    const folder = join(base, 'npm');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      '{"name":"t","version":"1.0.0","scripts":{"test":"node -e 0"}}',
    );
    writeFileSync(join(folder, 'x.js'), 'require("fs").writeFileSync("pwned", "")');
    const command = 'npm test --filter --node-options=--require=./x.js';
    const ran = spawnSync('bash', ['-c', command], { cwd: folder, timeout: 60_000 });
    if (ran.error === undefined) expect(existsSync(join(folder, 'pwned'))).toBe(true);
    for (const text of [command, 'npm test -F --node-options=--require=./x.js'])
      expect((await decide(text)).decision, text).not.toBe('allow');
  });
});

describe('a wrapper with no command', () => {
  it('does not let `env` alone (which prints every variable, keys included) ride on another part', async () => {
    const decide = await setUp();
    // `env` with no command is no part at all, so the rule for `echo` allows the line, and bash
    // runs `env` (traced), which prints the environment of the agent: its API key among it.
    for (const command of ['echo hi; env', 'ls && env -0', 'echo; env -u HOME']) {
      expect(
        runTraced(command).ran.map((words) => words[0]),
        command,
      ).toContain('env');
      expect((await decide(command)).decision, command).not.toBe('allow');
    }
  });
});

describe('find -exec', () => {
  it('asks where `+` does not follow `{}`: find passes it, and all after it, to the command', async () => {
    const decide = await setUp();
    // The policy saw `sed -n` and `find . -e '1e touch pwned' …`; find ran
    // `sed -n + -e '1e touch pwned' /etc/hostname`, and sed ran `sh -c 'touch pwned'`.
    const command = "find . -maxdepth 0 -exec sed -n + -e '1e touch pwned' /etc/hostname \\;";
    expect(runTraced(command).ran).toContainEqual(['touch', 'pwned']);
    expect((await decide(command)).decision).not.toBe('allow');
    const writes = "find . -maxdepth 0 -exec sed + -e 'w pwned' \\;";
    expect(runTraced(writes).files).toContain('pwned');
    expect((await decide(writes)).decision).not.toBe('allow');
  });

  it('reads deeply nested `find -exec find -exec …` without throwing', async () => {
    const command = `find . ${'-exec find . '.repeat(4000)}\\;`;
    // Today: RangeError (Maximum call stack size exceeded), after seconds of quadratic work.
    await expect(analyseCommand(command)).resolves.toBeDefined();
  });
});

describe('runners nested in runners', () => {
  it('bounds `npx npx … tsc` and `pnpm exec pnpm exec … tsc` as it bounds wrappers', async () => {
    // Each runner checks the command it runs, with no bound on depth: quadratic time (8,000
    // deep: 5.6 s for npx, 16 s for pnpm exec, the event loop blocked), then a RangeError
    // (20,000 deep, after 26 s). Wrappers stop at 16 ("nested too deep to check").
    for (const command of [`${'npx '.repeat(2000)}tsc`, `${'pnpm exec '.repeat(2000)}tsc`]) {
      const analysis = await analyseCommand(command);
      expect(analysis.problem, command.slice(0, 40)).toBeDefined();
    }
  });
});
