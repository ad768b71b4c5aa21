import { describe, expect, it } from 'vitest';
import { analyseCommand } from '../../src/policy/command/analyse-command.js';
import { commandCheck, commandPolicy, findingsSetUp } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

// Findings of the attack on the fail-closed policy, under the rules of FINDINGS_ALLOW.
const base = testFileFolder('dsh-attack-findings-');
const setUp = findingsSetUp(base);

describe('programs\' own options that run code, under the rule "always" offers', () => {
  it('asks for `cargo --config` and `go -exec`/`-toolexec`, as for npm and git', async () => {
    const { workspace, policy } = await commandPolicy(base, {
      allow: ['run_command:cargo run', 'run_command:cargo test', 'run_command:go test'],
    });
    // Seen: in a new crate, the first runs `touch pwned target/debug/demo`.
    for (const command of [
      `cargo run --config "target.x86_64-unknown-linux-gnu.runner = 'touch pwned'"`,
      'cargo test --config build.rustc-wrapper=./w.sh',
      'go test -exec ./w.sh ./...',
      'go test -toolexec ./w.sh ./...',
    ]) {
      const verdict = await policy.decide(commandCheck(workspace, command));
      expect(verdict.decision, command).not.toBe('allow');
    }
  });
});

describe('what "always" offers', () => {
  it('offers none for a command found inside another (a wrapper, `bash -c`, `find -exec`)', async () => {
    const { workspace, policy } = await commandPolicy(base, {
      allow: ['run_command:echo', 'run_command:find'],
    });
    // "Always allow `rm`" was offered for the `rm` that `find` runs.
    for (const command of ['find . -exec rm -rf {} \\;', "bash -c 'rm -rf x'", 'timeout 5 rm x'])
      expect(await policy.decide(commandCheck(workspace, command)), command).not.toHaveProperty(
        'allowAlways',
      );
    // A command of the line itself is offered, by its own words, as the person sees it.
    for (const [command, rule] of [
      ['echo hi; rm -rf x', 'run_command:rm'],
      ['echo hi | git push', 'run_command:git push'],
    ] as const)
      expect(await policy.decide(commandCheck(workspace, command)), command).toMatchObject({
        allowAlways: { rule },
      });
  });
});

describe('programs without a record whose own options run a program or write a file', () => {
  it('asks for `sort --compress-program`/`-o`, `uniq IN OUT` and `ssh -o ProxyCommand`', async () => {
    const { workspace, policy } = await commandPolicy(base, {
      allow: ['run_command:sort', 'run_command:uniq', 'run_command:ssh'],
    });
    // Seen under bash: the first ran ./c.sh (sort runs it to compress its temporary files), the
    // next two wrote `written`, and ssh ran `touch pwned` through sh before it connected.
    for (const command of [
      'sort -S 100K --compress-program=./c.sh in.txt',
      'sort -o written in.txt',
      'uniq in.txt written',
      'ssh -o ProxyCommand="touch pwned" -o BatchMode=yes host',
    ]) {
      const verdict = await policy.decide(commandCheck(workspace, command));
      expect(verdict.decision, command).not.toBe('allow');
    }
  });
});

describe('the last findings of the attack', () => {
  it('reads NAME+=value as the assignment bash makes of it, and meets the command after it', async () => {
    const decide = await setUp();
    // bash appends to PATH, then runs `rm`: the policy read `PATH+=:.` as the command's name.
    expect(await decide('PATH+=:. rm -rf src')).toMatchObject({ decision: 'deny' });
    expect((await decide('PATH+=:. ls')).decision).toBe('ask');
    expect((await decide('CI+=1 ls')).decision).toBe('allow');
  });

  it('meets the command of `env -` and of an abbreviated option that takes a value', async () => {
    const decide = await setUp();
    for (const command of ['env - rm -rf src', 'nice --adj 5 rm x', 'timeout -vk 1 5 rm x'])
      expect(await decide(command), command).toMatchObject({ decision: 'deny' });
  });

  it('asks for `make` with a second target, and `xxd IN OUT`', async () => {
    const { workspace, policy } = await commandPolicy(base, {
      allow: ['run_command:make test', 'run_command:xxd'],
    });
    for (const command of ['make test deploy', 'xxd -r in.hex out'])
      expect((await policy.decide(commandCheck(workspace, command))).decision, command).toBe('ask');
    expect((await policy.decide(commandCheck(workspace, 'make test -j4'))).decision).toBe('allow');
  });

  it('does not hand the parser a long text it cannot stop in time', async () => {
    // `a=(` repeated: the parser stops at its budget only between steps, and a step grew with
    // the text (96 KB took 1.4 s past a 250 ms budget).
    const analysis = await analyseCommand('a=('.repeat(32_000));
    expect(analysis.problem).toBeDefined();
    expect(analysis.parts).toEqual([]);
  });
});
